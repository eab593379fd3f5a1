import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import Testing

/// `assign`, an import's administrative assertion: the purchase named goes to the customer holding the
/// plan's ids with a purchase-id link, and nothing else — not the other purchases of the Apple account a
/// document answers for, not a purchase another customer owns, nothing again on a second assignment
/// (App Store items signed by the test kit's throwaway chain).
@Suite("assign: an import gives purchases to customers", .timeLimit(.minutes(3)))
struct AssignTests {
    static let bundleId = "com.acme.trails"
    static let product = "com.acme.trails.pro.monthly"
    static let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"
    /// 2025-01-01T00:00:00Z.
    static let purchased: Int64 = 1_735_689_600_000
    static let received = Date(timeIntervalSince1970: 1_735_689_600 + 86_400)

    let signer: AppStoreTestSigner
    let store = InMemoryLedgerStore()
    let ledger: EntitlementLedger

    init() throws {
        signer = try AppStoreTestSigner()
        let source = AppStoreLedgerSource(
            catalog: SignedNotifications.catalog, bundleId: Self.bundleId, rootCertificates: [signer.rootCertificate])
        ledger = EntitlementLedger(sources: [source], store: store)
    }

    static func purchase(_ originalTransactionId: String) -> LedgerThreadID {
        LedgerThreadID(source: .appStore, key: originalTransactionId)
    }

    static func transaction(_ id: String, original: String, signedAt signedDate: Int64 = purchased) -> JSONValue {
        .object([
            "transactionId": .string(id), "originalTransactionId": .string(original), "bundleId": .string(bundleId),
            "productId": .string(product), "purchaseDate": .integer(signedDate),
            "originalPurchaseDate": .integer(purchased), "expiresDate": .integer(signedDate + 31 * 86_400_000),
            "signedDate": .integer(signedDate), "type": .string("Auto-Renewable Subscription"),
            "inAppOwnershipType": .string("PURCHASED"), "environment": .string("Production"), "quantity": .integer(1),
        ])
    }

    /// A Get Transaction History response: what Apple answers for the whole Apple account.
    func history(_ transactions: [JSONValue]) -> LedgerDocument {
        let body = JSONValue.object([
            "bundleId": .string(Self.bundleId), "environment": .string("Production"), "hasMore": .bool(false),
            "revision": .string("r1"), "signedTransactions": .array(transactions.map { .string(signer.sign($0)) }),
        ])
        return LedgerDocument(source: .appStore, body: Data(body.compactText.utf8), receivedAt: Self.received)
    }

    /// Every row of the store, by `table/key`.
    func rows() async throws -> [String: Data] {
        try await store.transaction { transaction throws(LedgerRefusal) in
            var rows: [String: Data] = [:]
            for table in LedgerTable.allCases {
                for key in try await transaction.keys(in: table) {
                    rows["\(table.rawValue)/\(key)"] = try await transaction.value(in: table, key: key)
                }
            }
            return rows
        }
    }

    @Test func aDocumentOfTheWholeAppleAccountAssignsAndStoresOnlyThePurchaseNamed() async throws {
        let document = history([
            Self.transaction("5001", original: "5001"), Self.transaction("5002", original: "5002"),
        ])
        let outcome = try await ledger.assign(
            Self.purchase("5001"), to: ["zoe", Self.anonymous], document: document, receivedAt: Self.received)
        #expect(outcome == .applied(customers: ["zoe"]))
        #expect(try await ledger.thread(Self.purchase("5002")) == nil, "another purchase of the account is not stored")
        #expect(try await ledger.thread(Self.purchase("5001"))?.records.isEmpty == false)
        #expect(try await ledger.customers() == [["zoe", Self.anonymous]], "created with the whole alias set")
        let snapshot = try await ledger.snapshot(for: Self.anonymous, at: Self.received)
        #expect(snapshot.isActive("pro"))
        #expect(snapshot.nonSubscriptionTransactions.isEmpty && snapshot.entitlements.count == 1)

        // The account's other purchase stays unowned: the app's posting gives it to whoever posts it.
        let posted = LedgerDocument(
            source: .appStore, body: history([Self.transaction("5002", original: "5002")]).body, appUserId: "ann",
            receivedAt: Self.received)
        #expect(try await ledger.apply(posted) == .applied(customers: ["ann"]))
    }

    @Test func aLaterNotificationNamingNoTokenReachesTheImportedCustomer() async throws {
        #expect(
            try await ledger.assign(Self.purchase("6001"), to: ["zoe"], receivedAt: Self.received)
                == .applied(customers: ["zoe"]))
        let renewedAt = Self.purchased + 31 * 86_400_000
        let payload = JSONValue.object([
            "notificationType": .string("DID_RENEW"), "notificationUUID": .string("0b5e-renewal"),
            "version": .string("2.0"), "signedDate": .integer(renewedAt),
            "data": .object([
                "bundleId": .string(Self.bundleId), "environment": .string("Production"),
                "signedTransactionInfo": .string(
                    signer.sign(Self.transaction("6002", original: "6001", signedAt: renewedAt))),
            ]),
        ])
        let notification = LedgerNotification(
            source: .appStore,
            body: Data(JSONValue.object(["signedPayload": .string(signer.sign(payload))]).compactText.utf8),
            receivedAt: Date(timeIntervalSince1970: Double(renewedAt) / 1000 + 60))
        #expect(try await ledger.apply(notification) == .applied(customers: ["zoe"]))
        let snapshot = try await ledger.snapshot(
            for: "zoe", at: Date(timeIntervalSince1970: Double(renewedAt) / 1000 + 86_400))
        #expect(snapshot.isActive("pro"))

        // An assigned purchase binds: someone else posting it is refused, whatever the restore behaviour.
        let claim = LedgerClaim(
            source: .appStore,
            token: JSONValue.array([
                .string(signer.sign(Self.transaction("6002", original: "6001", signedAt: renewedAt)))
            ])
            .compactText,
            appUserId: "mallory", receivedAt: notification.receivedAt)
        #expect(try await ledger.apply(claim) == .receiptInUseByOtherUser(owner: "zoe"))
    }

    @Test func aPurchaseAnotherCustomerOwnsIsAnsweredOwnedByOtherAndNothingChanges() async throws {
        let posted = LedgerDocument(
            source: .appStore, body: history([Self.transaction("7001", original: "7001")]).body, appUserId: "alice",
            receivedAt: Self.received)
        _ = try await ledger.apply(posted)
        _ = try await ledger.assign(Self.purchase("7002"), to: ["carl"], receivedAt: Self.received)
        let before = try await rows()

        let owned = try await ledger.assign(
            Self.purchase("7001"), to: ["bob"], document: history([Self.transaction("7001", original: "7001")]),
            receivedAt: Self.received)
        #expect(owned == .ownedByOther(owner: "alice"))
        let linked = try await ledger.assign(Self.purchase("7002"), to: ["dave"], receivedAt: Self.received)
        #expect(linked == .ownedByOther(owner: "carl"), "a purchase-id link owns the purchase before any statement")
        #expect(try await rows() == before, "no customer created, no link, no statement")
    }

    @Test func assigningAgainChangesNothing() async throws {
        let document = history([Self.transaction("8001", original: "8001")])
        _ = try await ledger.assign(
            Self.purchase("8001"), to: ["zoe", Self.anonymous], document: document, receivedAt: Self.received)
        let before = try await rows()
        let again = try await ledger.assign(
            Self.purchase("8001"), to: ["zoe", Self.anonymous], document: document, receivedAt: Self.received)
        guard case .noChange = again else {
            Issue.record("assigning again answered \(again)")
            return
        }
        #expect(try await rows() == before)
    }

    @Test func idsOfTwoCustomersAreRefusedAliasConflictAndStoreNothing() async throws {
        _ = try await ledger.logIn(from: Self.anonymous, to: "u1")
        try await ledger.register(appUserId: "u2")
        let before = try await rows()
        do {
            let outcome = try await ledger.assign(Self.purchase("9001"), to: ["u1", "u2"], receivedAt: Self.received)
            Issue.record("answered \(outcome)")
        } catch {
            #expect(error.kind == .aliasConflict)
            #expect(error.message.contains("\"u1\"") && error.message.contains("\"u2\""), "\(error.message)")
        }
        #expect(try await rows() == before)
    }

    @Test func theCustomersNameInExportsIsThePlansFirstId() async throws {
        _ = try await ledger.logIn(from: Self.anonymous, to: "b-identified")
        _ = try await ledger.assign(
            Self.purchase("9101"), to: ["z-planned", "b-identified"], receivedAt: Self.received)
        let roll = try await ledger.namedCustomers()
        #expect(roll.customers.map(\.name) == ["z-planned"], "not the first identified id by bytes")
        #expect(
            roll.customers.first?.aliases
                == [Self.anonymous, "b-identified"].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func aDocumentSayingNothingOfThePurchaseIsRefused() async throws {
        do {
            let outcome = try await ledger.assign(
                Self.purchase("9201"), to: ["zoe"], document: history([Self.transaction("9202", original: "9202")]),
                receivedAt: Self.received)
            Issue.record("answered \(outcome)")
        } catch {
            #expect(error.kind == .malformedBody)
        }
        #expect(try await ledger.customers().isEmpty)
    }
}
