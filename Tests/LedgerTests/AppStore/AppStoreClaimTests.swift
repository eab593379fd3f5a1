import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import Testing

/// What the app posts is a claim, and nothing comes from the future: every App Store item in a ledger is
/// a JWS that verifies and names the configured app, a decoded one is refused `unsigned`, a Play token or
/// a Stripe id is answered `refreshNeeded`, and a statement signed more than five minutes after the input
/// was received refuses the whole input (signed by the test kit's throwaway chain).
@Suite("App Store claims and statements from the future", .timeLimit(.minutes(3)))
struct AppStoreClaimTests {
    static let bundleId = "com.acme.trails"
    static let product = "com.acme.trails.pro.monthly"
    /// 2025-01-01T00:00:00Z.
    static let purchased: Int64 = 1_735_689_600_000
    static let received = Date(timeIntervalSince1970: 1_735_689_600 + 86_400)

    let signer: AppStoreTestSigner
    let ledger: EntitlementLedger

    init() throws {
        signer = try AppStoreTestSigner()
        let source = AppStoreLedgerSource(
            catalog: SignedNotifications.catalog, bundleId: Self.bundleId, rootCertificates: [signer.rootCertificate])
        ledger = EntitlementLedger(sources: [source])
    }

    static func transaction(
        _ id: String, signedAt signedDate: Int64 = purchased, bundleId: String = bundleId,
        expires: Int64 = purchased + 31 * 86_400_000
    ) -> JSONValue {
        .object([
            "transactionId": .string(id), "originalTransactionId": .string(id), "bundleId": .string(bundleId),
            "productId": .string(product), "purchaseDate": .integer(purchased),
            "originalPurchaseDate": .integer(purchased), "expiresDate": .integer(expires),
            "signedDate": .integer(signedDate), "type": .string("Auto-Renewable Subscription"),
            "inAppOwnershipType": .string("PURCHASED"), "environment": .string("Production"), "quantity": .integer(1),
        ])
    }

    func claim(_ items: [JSONValue], by appUserId: String = "alice") -> LedgerClaim {
        LedgerClaim(
            source: .appStore, token: JSONValue.array(items).compactText, appUserId: appUserId,
            receivedAt: Self.received)
    }

    func document(_ body: JSONValue) -> LedgerDocument {
        LedgerDocument(source: .appStore, body: Data(body.compactText.utf8), receivedAt: Self.received)
    }

    func refusal(_ apply: () async throws(LedgerRefusal) -> LedgerOutcome) async -> LedgerRefusal? {
        do {
            let outcome = try await apply()
            Issue.record("answered \(outcome)")
            return nil
        } catch {
            return error
        }
    }

    func expectNothingStored() async throws {
        #expect(try await ledger.customers().isEmpty)
        #expect(try await ledger.thread(LedgerThreadID(source: .appStore, key: "3000000000000001")) == nil)
    }

    @Test func aDecodedItemIsRefusedUnsignedWhereverItIs() async throws {
        let decoded = Self.transaction("3000000000000001")
        let posted = [.string(signer.sign(Self.transaction("3000000000000002"))), decoded]
        #expect(await refusal { () throws(LedgerRefusal) in try await ledger.apply(claim(posted)) }?.kind == .unsigned)
        let alone = LedgerClaim(
            source: .appStore, token: decoded.compactText, appUserId: "alice", receivedAt: Self.received)
        #expect(await refusal { () throws(LedgerRefusal) in try await ledger.apply(alone) }?.kind == .unsigned)
        let history: JSONValue = .object(["bundleId": .string(Self.bundleId), "signedTransactions": .array([decoded])])
        #expect(
            await refusal { () throws(LedgerRefusal) in try await ledger.apply(document(history)) }?.kind == .unsigned)
        let statuses: JSONValue = .object([
            "bundleId": .string(Self.bundleId),
            "data": .array([
                .object([
                    "subscriptionGroupIdentifier": .string("1"),
                    "lastTransactions": .array([
                        .object([
                            "originalTransactionId": .string("3000000000000001"), "status": .integer(1),
                            "signedTransactionInfo": decoded,
                        ])
                    ]),
                ])
            ]),
        ])
        #expect(
            await refusal { () throws(LedgerRefusal) in try await ledger.apply(document(statuses)) }?.kind == .unsigned)
        try await expectNothingStored()
        // The same purchase signed is taken.
        let signed = claim([.string(signer.sign(decoded))])
        #expect(try await ledger.apply(signed) == .applied(customers: ["alice"]))
    }

    @Test func everyItemOfADocumentMustNameTheConfiguredApp() async throws {
        let foreign = signer.sign(Self.transaction("3000000000000002", bundleId: "com.other.app"))
        let items: [JSONValue] = [.string(signer.sign(Self.transaction("3000000000000001"))), .string(foreign)]
        #expect(await refusal { () throws(LedgerRefusal) in try await ledger.apply(claim(items)) }?.kind == .bundleId)
        let history: JSONValue = .object(["bundleId": .string(Self.bundleId), "signedTransactions": .array(items)])
        #expect(
            await refusal { () throws(LedgerRefusal) in try await ledger.apply(document(history)) }?.kind == .bundleId)
        try await expectNothingStored()
    }

    @Test func aPlayTokenOrAStripeIdPostedByTheAppAsksForARefresh() async throws {
        // Any source but the App Store's answers a claim with a refresh (Stripe's is the protocol's default).
        let ledger = EntitlementLedger(sources: [
            GooglePlayLedgerSource(packageName: "com.acme.trails"), PlainSource(id: .stripe),
        ])
        let play = LedgerClaim(
            source: .googlePlay, token: #"{"lineItems": [{"productId": "pro"}]}"#, productId: "pro",
            appUserId: "alice", receivedAt: Self.received)
        #expect(
            try await ledger.apply(play)
                == .refreshNeeded(purchaseToken: #"{"lineItems": [{"productId": "pro"}]}"#, productId: "pro"))
        let stripe = LedgerClaim(source: .stripe, token: "cs_test_1", appUserId: "alice", receivedAt: Self.received)
        #expect(try await ledger.apply(stripe) == .refreshNeeded(purchaseToken: "cs_test_1", productId: nil))
        #expect(try await ledger.customers().isEmpty, "a claim that needs a fetch stores nothing")
    }

    @Test func aTransactionSignedInTheFutureRefusesTheWholeInput() async throws {
        let received = Self.received.millisecondsSince1970
        let genuine = Self.transaction("3000000000000001")
        let future = Self.transaction("3000000000000002", signedAt: received + 300_001)
        let posted = claim([.string(signer.sign(genuine)), .string(signer.sign(future))])
        #expect(
            await refusal { () throws(LedgerRefusal) in try await ledger.apply(posted) }?.kind == .signedInFuture)
        try await expectNothingStored()
        let withinTolerance = Self.transaction("3000000000000002", signedAt: received + 300_000)
        let accepted = claim([.string(signer.sign(genuine)), .string(signer.sign(withinTolerance))])
        #expect(try await ledger.apply(accepted) == .applied(customers: ["alice"]))
    }

    func notification(_ uuid: String, signedAt: Int64, transaction: JSONValue) -> LedgerNotification {
        let payload: JSONValue = .object([
            "notificationType": .string("DID_RENEW"), "notificationUUID": .string(uuid), "version": .string("2.0"),
            "signedDate": .integer(signedAt),
            "data": .object([
                "bundleId": .string(Self.bundleId), "environment": .string("Production"),
                "signedTransactionInfo": .string(signer.sign(transaction)), "status": .integer(1),
            ]),
        ])
        let body = JSONValue.object(["signedPayload": .string(signer.sign(payload))])
        return LedgerNotification(source: .appStore, body: Data(body.compactText.utf8), receivedAt: Self.received)
    }

    @Test func aNotificationOrItsTransactionSignedInTheFutureIsRefusedAndStoresNothing() async throws {
        let received = Self.received.millisecondsSince1970
        // A payload dated a day ahead would outrank the genuine refund that follows it.
        let futurePayload = notification(
            "a", signedAt: received + 86_400_000, transaction: Self.transaction("3000000000000001"))
        #expect(
            await refusal { () throws(LedgerRefusal) in try await ledger.apply(futurePayload) }?.kind
                == .signedInFuture)
        let futureTransaction = notification(
            "b", signedAt: received, transaction: Self.transaction("3000000000000001", signedAt: received + 600_000))
        #expect(
            await refusal { () throws(LedgerRefusal) in try await ledger.apply(futureTransaction) }?.kind
                == .signedInFuture)
        try await expectNothingStored()
        // Nothing of them was kept, not even their ids: the genuine deliveries with those ids apply.
        let genuine = notification("a", signedAt: received, transaction: Self.transaction("3000000000000001"))
        #expect(try await ledger.apply(genuine) != .duplicate)
    }
}
