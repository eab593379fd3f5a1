import EntitlementKit
import EntitlementKitAppStore
import Foundation
import Testing

/// What the adapter's configuration changes: test data, the bundle id, the catalog.
@Suite("App Store adapter configuration", .timeLimit(.minutes(1)))
struct ConfigurationTests {
    typealias D = TestDocuments

    @Test("StoreKit test data is refused unless allowed, then read unverified", arguments: ["Xcode", "LocalTesting"])
    func testEnvironments(_ environment: String) throws {
        let document = D.data(.array([D.transaction(["environment": .string(environment)])]))
        let error = #expect(throws: DocumentError.self) {
            try AppStoreAdapter().snapshot(from: document, at: D.instant)
        }
        #expect(error?.path.description == "[0].environment")
        #expect(error?.kind == .invalidValue)

        let snapshot = try AppStoreAdapter(allowsUnverifiedTestData: true).snapshot(from: document, at: D.instant)
        #expect(snapshot.verification == .notRequested)
        #expect(snapshot.isActive("com.acme.trails.pro.monthly"))
        #expect(snapshot["com.acme.trails.pro.monthly"]?.isSandbox == true)
        #expect(snapshot["com.acme.trails.pro.monthly"]?.transactions.first?.environment == .sandbox)
    }

    @Test("test data in a renewal info is refused too")
    func testEnvironmentInRenewalInfo() throws {
        let document: JSONValue = .object([
            "data": .array([
                .object([
                    "lastTransactions": .array([
                        .object([
                            "status": .integer(1), "signedTransactionInfo": D.transaction(),
                            "signedRenewalInfo": .object([
                                "originalTransactionId": .string("2000000001"), "autoRenewStatus": .integer(1),
                                "environment": .string("Xcode"),
                            ]),
                        ])
                    ])
                ])
            ])
        ])
        let error = #expect(throws: DocumentError.self) {
            try AppStoreAdapter().snapshot(from: D.data(document), at: D.instant)
        }
        #expect(error?.path.description == "data[0].lastTransactions[0].signedRenewalInfo.environment")
        let snapshot = try AppStoreAdapter(allowsUnverifiedTestData: true).snapshot(
            from: D.data(document), at: D.instant)
        #expect(snapshot["com.acme.trails.pro.monthly"]?.renewState == .willRenew)
    }

    @Test("a configured bundle id must be the transaction's, and present")
    func bundleId() throws {
        let adapter = AppStoreAdapter(bundleId: "com.acme.trails")
        let matching = D.data(.array([D.transaction()]))
        #expect(try adapter.snapshot(from: matching, at: D.instant).activeEntitlementIds.count == 1)

        let other = D.data(.array([D.transaction(["bundleId": .string("com.acme.other")])]))
        let mismatch = #expect(throws: DocumentError.self) { try adapter.snapshot(from: other, at: D.instant) }
        #expect(
            mismatch?.description
                == #"[0].bundleId: "com.acme.other" is not the configured bundle id "com.acme.trails""#)

        guard case .object(var members) = D.transaction() else { return }
        members["bundleId"] = nil
        let missing = #expect(throws: DocumentError.self) {
            try adapter.snapshot(from: D.data(.array([.object(members)])), at: D.instant)
        }
        #expect(missing?.kind == .missingField)
        #expect(missing?.path.description == "[0].bundleId")
        // Without a configured bundle id, neither is checked.
        #expect(try AppStoreAdapter().snapshot(from: other, at: D.instant).activeEntitlementIds.count == 1)
    }

    @Test("a response's own bundleId is checked against the configured one")
    func envelopeBundleId() throws {
        let history: JSONValue = .object([
            "bundleId": .string("com.acme.other"), "signedTransactions": .array([D.transaction()]),
        ])
        let error = #expect(throws: DocumentError.self) {
            try AppStoreAdapter(bundleId: "com.acme.trails").snapshot(from: D.data(history), at: D.instant)
        }
        #expect(error?.path.description == "bundleId")
    }

    @Test("without a catalog every product is its own entitlement; with one, unnamed products unlock nothing")
    func catalog() throws {
        let document = D.data(.array([D.transaction()]))
        #expect(
            try AppStoreAdapter().snapshot(from: document, at: D.instant).activeEntitlementIds == [
                "com.acme.trails.pro.monthly"
            ])
        let catalog = EntitlementCatalog(products: ["com.acme.trails.pro.yearly": .init(entitlementIds: ["pro"])])
        let snapshot = try AppStoreAdapter(catalog: catalog).snapshot(from: document, at: D.instant)
        #expect(snapshot.entitlements.isEmpty)
        #expect(snapshot.nonSubscriptionTransactions.map(\.productId) == ["com.acme.trails.pro.monthly"])
    }

    @Test("one product may unlock several entitlements")
    func productWithTwoEntitlements() throws {
        let catalog = EntitlementCatalog(products: [
            "com.acme.trails.pro.monthly": .init(entitlementIds: ["pro", "maps"])
        ])
        let snapshot = try AppStoreAdapter(catalog: catalog).snapshot(
            from: D.data(.array([D.transaction()])), at: D.instant)
        #expect(snapshot.activeEntitlementIds == ["maps", "pro"])
    }

    @Test("a JWS is refused while this build cannot verify it: nothing unverified is trusted")
    func jwsWithoutVerifier() throws {
        let document = D.data(.array([.string("eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln")]))
        let error = #expect(throws: DocumentError.self) {
            try AppStoreAdapter(allowsUnverifiedTestData: true).snapshot(from: document, at: D.instant)
        }
        #expect(error?.path.description == "[0]")
    }
}
