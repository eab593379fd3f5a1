import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitFixtures
import Foundation
import Testing

/// What the adapter's configuration changes: test data, the bundle id, the catalog.
@Suite("App Store adapter configuration", .timeLimit(.minutes(5)))
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

    @Test("a JWS that does not verify is refused where it stands: nothing unverified is trusted")
    func jwsThatDoesNotVerify() throws {
        let document = D.data(.array([.string("eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln")]))
        let error = #expect(throws: DocumentError.self) {
            try AppStoreAdapter(allowsUnverifiedTestData: true).snapshot(from: document, at: D.instant)
        }
        #expect(error?.path.description == "[0]")
    }

    @Test("a JWS of StoreKit test data is only decoded, and only when allowed")
    func signedTestData() throws {
        let folder = try #require(FixtureCatalog.directory(provider: .appStore)).appendingPathComponent("signed")
        let document = try Data(contentsOf: folder.appendingPathComponent("xcode.json"))
        let refused = #expect(throws: DocumentError.self) {
            try AppStoreAdapter().snapshot(from: document, at: D.instant)
        }
        #expect(refused?.path.description == "[0].environment")
        let snapshot = try AppStoreAdapter(allowsUnverifiedTestData: true).snapshot(from: document, at: D.instant)
        #expect(snapshot.verification == .notRequested)
        #expect(snapshot.isActive("com.acme.trails.pro.monthly"))
        // A JWS that is not test data is never read unverified.
        let signed = try Data(contentsOf: folder.appendingPathComponent("transactions.json"))
        #expect(throws: DocumentError.self) {
            try AppStoreAdapter(allowsUnverifiedTestData: true).snapshot(from: signed, at: D.instant)
        }
    }

    @Test("signed documents verify against their root: the snapshot is verified only when every item was")
    func signedDocumentsVerify() throws {
        let folder = try #require(FixtureCatalog.directory(provider: .appStore)).appendingPathComponent("signed")
        let root = try Data(contentsOf: folder.appendingPathComponent("test-root.der"))
        let adapter = AppStoreAdapter(bundleId: "com.acme.trails", rootCertificates: [root])
        for name in ["statuses.json", "transactions.json"] {
            let document = try Data(contentsOf: folder.appendingPathComponent(name))
            let snapshot = try adapter.snapshot(from: document, at: D.instant)
            #expect(snapshot.verification == .verified, "\(name)")
            // The bundled Apple root alone does not trust the test PKI.
            #expect(throws: DocumentError.self, "\(name)") {
                try AppStoreAdapter(bundleId: "com.acme.trails").snapshot(from: document, at: D.instant)
            }
        }
        let mixed = try adapter.snapshot(
            from: try Data(contentsOf: folder.appendingPathComponent("mixed.json")), at: D.instant)
        #expect(mixed.verification == .notRequested)
        let tampered = #expect(throws: DocumentError.self) {
            try adapter.snapshot(
                from: try Data(contentsOf: folder.appendingPathComponent("tampered.json")), at: D.instant)
        }
        #expect(tampered?.reason.contains("does not verify") == true)
    }

    @Test("a string that is not a JWS is refused where it stands", arguments: ["a.b", "a..c", "a.b+c.d", "a.!!.c"])
    func notAJWS(_ text: String) throws {
        let error = #expect(throws: DocumentError.self) {
            try AppStoreAdapter(allowsUnverifiedTestData: true).snapshot(
                from: D.data(.array([.string(text)])), at: D.instant)
        }
        #expect(error?.path.description == "[0]")
    }
}
