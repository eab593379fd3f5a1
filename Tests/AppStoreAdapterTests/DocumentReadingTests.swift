import EntitlementKit
import EntitlementKitAppStore
import Foundation
import Testing

/// Reading rules that no fixture isolates: dates, duplicates, the snapshot's clock and verification.
@Suite("App Store document reading", .timeLimit(.minutes(5)))
struct DocumentReadingTests {
    typealias D = TestDocuments
    let adapter = AppStoreAdapter()
    let product = "com.acme.trails.pro.monthly"

    @Test("Xcode's fractional milliseconds are kept to the millisecond")
    func fractionalMilliseconds() throws {
        let document = D.data(
            .array([D.transaction(["expiresDate": .double(1_751_328_000_123.9), "environment": .string("Sandbox")])]))
        let snapshot = try adapter.snapshot(from: document, at: D.instant)
        #expect(snapshot[product]?.expirationDate == Date(millisecondsSince1970: 1_751_328_000_123))
    }

    @Test(
        "a date that is not a plausible number of milliseconds fails the document",
        arguments: [
            (JSONValue.string("1751328000000"), DocumentError.Kind.wrongType),
            (.bool(true), .wrongType),
            (.integer(300_000_000_000_000), .invalidValue),
            (.double(-1e300), .invalidValue),
        ])
    func badDates(_ value: JSONValue, _ kind: DocumentError.Kind) throws {
        let error = #expect(throws: DocumentError.self) {
            try adapter.snapshot(from: D.data(.array([D.transaction(["expiresDate": value])])), at: D.instant)
        }
        #expect(error?.kind == kind)
        #expect(error?.path.description == "[0].expiresDate")
    }

    @Test("an unknown type grants nothing and needs none of the granting fields")
    func unknownTypeIsNotRequiredToBeComplete() throws {
        let document = D.data(.array([.object(["transactionId": .string("9"), "type": .string("Bundle")])]))
        let snapshot = try adapter.snapshot(from: document, at: D.instant)
        #expect(snapshot.entitlements.isEmpty)
        #expect(snapshot.nonSubscriptionTransactions.map(\.type) == [.unknown])
    }

    @Test("the same transactionId counts once: the copy Apple signed later is kept")
    func duplicatesKeepTheNewerCopy() throws {
        let refunded = D.transaction([
            "signedDate": .integer(D.signed + 1000), "revocationDate": .integer(D.signed),
            "revocationType": .string("REFUND_FULL"),
        ])
        for order in [[D.transaction(), refunded], [refunded, D.transaction()]] {
            let snapshot = try adapter.snapshot(from: D.data(.array(order)), at: D.instant)
            #expect(snapshot[product]?.isActive == false)
            #expect(snapshot[product]?.transactions.count == 1)
            #expect(snapshot[product]?.cancellationReason == .refunded)
        }
    }

    @Test("requestDate is the newest signedDate of any item, renewal infos included")
    func requestDate() throws {
        let document: JSONValue = .object([
            "data": .array([
                .object([
                    "lastTransactions": .array([
                        .object([
                            "status": .integer(1), "signedTransactionInfo": D.transaction(),
                            "signedRenewalInfo": .object([
                                "originalTransactionId": .string("2000000001"), "autoRenewStatus": .integer(1),
                                "signedDate": .integer(D.signed + 5000),
                            ]),
                        ])
                    ])
                ])
            ])
        ])
        let snapshot = try adapter.snapshot(from: D.data(document), at: D.instant)
        #expect(snapshot.requestDate == Date(millisecondsSince1970: D.signed + 5000))
    }

    @Test("decoded payloads are never verified, and a document without items is not either")
    func verification() throws {
        #expect(
            try adapter.snapshot(from: D.data(.array([D.transaction()])), at: D.instant).verification == .notRequested)
        #expect(try adapter.snapshot(from: Data("[]".utf8), at: D.instant).verification == .notRequested)
    }

    @Test("the statuses item, its transaction and its renewal info must name one subscription")
    func statusesItemMustAgree() throws {
        let document: JSONValue = .object([
            "data": .array([
                .object([
                    "lastTransactions": .array([
                        .object([
                            "originalTransactionId": .string("2000000999"), "status": .integer(1),
                            "signedTransactionInfo": D.transaction(),
                        ])
                    ])
                ])
            ])
        ])
        let error = #expect(throws: DocumentError.self) {
            try adapter.snapshot(from: D.data(document), at: D.instant)
        }
        #expect(error?.kind == .inconsistent)
        #expect(error?.path.description == "data[0].lastTransactions[0].signedTransactionInfo.originalTransactionId")
    }

    @Test("access is judged at the instant asked: active up to and at expiresDate, not after")
    func expiryBoundary() throws {
        let document = D.data(.array([D.transaction()]))
        let expiry = Date(millisecondsSince1970: D.july1)
        #expect(try adapter.snapshot(from: document, at: expiry).isActive(product))
        #expect(try !adapter.snapshot(from: document, at: expiry.addingTimeInterval(0.001)).isActive(product))
    }

    @Test("active beats inactive, then no expiry beats any, then the later expiry")
    func winnerOrder() throws {
        let catalog = EntitlementCatalog(products: [
            "a": .init(entitlementIds: ["pro"]), "b": .init(entitlementIds: ["pro"]),
            "life": .init(entitlementIds: ["pro"]),
        ])
        let adapter = AppStoreAdapter(catalog: catalog)
        let a = D.transaction([
            "transactionId": .string("1"), "originalTransactionId": .string("1"), "productId": .string("a"),
        ])
        let b = D.transaction([
            "transactionId": .string("2"), "originalTransactionId": .string("2"), "productId": .string("b"),
            "expiresDate": .integer(D.july1 + 86_400_000),
        ])
        let life = D.transaction([
            "transactionId": .string("3"), "originalTransactionId": .string("3"), "productId": .string("life"),
            "type": .string("Non-Consumable"), "expiresDate": .null,
        ])
        #expect(try adapter.snapshot(from: D.data(.array([b, a])), at: D.instant)["pro"]?.productId == "b")
        #expect(try adapter.snapshot(from: D.data(.array([a, life, b])), at: D.instant)["pro"]?.productId == "life")
        let later = Date(millisecondsSince1970: D.july1 + 2 * 86_400_000)
        // Both expired: the later expiry still names the entitlement's last access.
        #expect(try adapter.snapshot(from: D.data(.array([b, a])), at: later)["pro"]?.productId == "b")
    }
}

@Suite("App Store renewal infos sent with StoreKit transactions", .timeLimit(.minutes(5)))
struct LooseRenewalInfoTests {
    typealias D = TestDocuments
    let product = "com.acme.trails.pro.monthly"

    static func renewalInfo(autoRenewStatus: Int64, signed: Int64 = D.signed) -> JSONValue {
        .object([
            "originalTransactionId": .string("2000000001"), "productId": .string("com.acme.trails.pro.monthly"),
            "autoRenewProductId": .string("com.acme.trails.pro.monthly"), "autoRenewStatus": .integer(autoRenewStatus),
            "signedDate": .integer(signed), "environment": .string("Production"),
        ])
    }

    @Test("a renewal info in a transactions array describes its subscription")
    func renewalInfoInAnArray() throws {
        let document = D.data(.array([D.transaction(), Self.renewalInfo(autoRenewStatus: 0)]))
        let snapshot = try AppStoreAdapter().snapshot(from: document, at: D.instant)
        #expect(snapshot[product]?.renewState == .cancelled)
        #expect(snapshot.nonSubscriptionTransactions.isEmpty)
        #expect(snapshot[product]?.transactions.count == 1)
    }

    @Test("a statuses response's renewal info and status win over one sent along")
    func statusesWin() throws {
        let statuses: JSONValue = .object([
            "data": .array([
                .object([
                    "lastTransactions": .array([
                        .object([
                            "status": .integer(1), "signedTransactionInfo": D.transaction(),
                            "signedRenewalInfo": Self.renewalInfo(autoRenewStatus: 1),
                        ])
                    ])
                ])
            ])
        ])
        let combined: JSONValue = .object([
            "statuses": statuses,
            "transactions": .array([Self.renewalInfo(autoRenewStatus: 0, signed: D.signed + 1000)]),
        ])
        let snapshot = try AppStoreAdapter().snapshot(from: D.data(combined), at: D.instant)
        #expect(snapshot[product]?.renewState == .willRenew)
        #expect(snapshot.requestDate == Date(millisecondsSince1970: D.signed + 1000))
    }
}
