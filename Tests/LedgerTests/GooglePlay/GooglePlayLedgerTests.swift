import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// Google Play through the ledger: RTDN push bodies and fetched documents with their tokens.
@Suite("Google Play in the ledger", .timeLimit(.minutes(5)))
struct GooglePlayLedgerTests {
    static let package = "com.acme.trails"
    static let catalog = EntitlementCatalog(products: ["trails_pro": .init(entitlementIds: ["pro"])])

    func ledger() -> EntitlementLedger {
        EntitlementLedger(sources: [GooglePlayLedgerSource(catalog: Self.catalog, packageName: Self.package)])
    }

    /// A Pub/Sub push body around a `DeveloperNotification`.
    static func push(messageId: String, _ members: [String: JSONValue], package: String = package) -> LedgerNotification
    {
        var notification = members
        notification["version"] = .string("1.0")
        notification["packageName"] = .string(package)
        notification["eventTimeMillis"] = .string("1739577600000")
        let data = Data(JSONValue.object(notification).compactText.utf8).base64EncodedString()
        let body = JSONValue.object([
            "message": .object([
                "data": .string(data), "messageId": .string(messageId), "publishTime": .string("2025-02-15T00:00:00Z"),
            ]),
            "subscription": .string("projects/acme/subscriptions/play"),
        ])
        return LedgerNotification(
            source: .googlePlay, body: Data(body.compactText.utf8), receivedAt: midnight("2025-02-15"))
    }

    /// A `SubscriptionPurchaseV2` of `trails_pro` expiring at `expiry`.
    static func subscription(expiry: String, account: String? = "acct-7", linked: String? = nil, test: Bool = false)
        -> JSONValue
    {
        var members: [String: JSONValue] = [
            "kind": .string("androidpublisher#subscriptionPurchaseV2"),
            "subscriptionState": .string("SUBSCRIPTION_STATE_ACTIVE"),
            "startTime": .string("2025-01-01T00:00:00Z"),
            "lineItems": .array([
                .object([
                    "productId": .string("trails_pro"), "expiryTime": .string(expiry),
                    "autoRenewingPlan": .object(["autoRenewEnabled": .bool(true)]),
                ])
            ]),
        ]
        if let account {
            members["externalAccountIdentifiers"] = .object(["obfuscatedExternalAccountId": .string(account)])
        }
        if let linked { members["linkedPurchaseToken"] = .string(linked) }
        if test { members["testPurchase"] = .object([:]) }
        return .object(members)
    }

    static func document(_ purchase: JSONValue, token: String, at day: String, appUserId: String? = nil)
        -> LedgerDocument
    {
        LedgerDocument(
            source: .googlePlay, body: Data(purchase.compactText.utf8), purchaseToken: token, appUserId: appUserId,
            receivedAt: midnight(day))
    }

    @Test func aSubscriptionNotificationAsksForARefresh() async throws {
        let push = Self.push(
            messageId: "m1",
            [
                "subscriptionNotification": .object([
                    "version": .string("1.0"), "notificationType": .integer(2), "purchaseToken": .string("tok-1"),
                    "subscriptionId": .string("trails_pro"),
                ])
            ])
        #expect(try await ledger().apply(push) == .refreshNeeded(purchaseToken: "tok-1", productId: "trails_pro"))
        let oneTime = Self.push(
            messageId: "m2",
            [
                "oneTimeProductNotification": .object([
                    "version": .string("1.0"), "notificationType": .integer(1), "purchaseToken": .string("tok-2"),
                    "sku": .string("coins"),
                ])
            ])
        #expect(try await ledger().apply(oneTime) == .refreshNeeded(purchaseToken: "tok-2", productId: "coins"))
    }

    @Test func aTestNotificationChangesNothingAndADuplicateIsSeen() async throws {
        let ledger = ledger()
        let push = Self.push(messageId: "t1", ["testNotification": .object(["version": .string("1.0")])])
        #expect(try await ledger.apply(push).name == "noChange")
        #expect(try await ledger.apply(push) == .duplicate)
    }

    /// Found by the fuzzer: a bare purchase that names a token of its own other than the one it was posted
    /// with was kept, and every later snapshot of its customer failed; it is refused and stores nothing.
    @Test func aBarePurchaseNamingAnotherTokenIsRefused() async throws {
        let ledger = ledger()
        let product = JSONValue.object([
            "kind": .string("androidpublisher#productPurchase"), "productId": .string("trails_pro"),
            "purchaseToken": .string("tok-own"), "purchaseTimeMillis": .string("1746000000000"),
            "purchaseState": .integer(0), "consumptionState": .integer(0),
            "obfuscatedExternalAccountId": .string("acct-9"),
        ])
        do {
            _ = try await ledger.apply(Self.document(product, token: "tok-posted", at: "2025-05-01"))
            Issue.record("a purchase whose own token differs was kept")
        } catch {
            #expect(error.kind == .malformedBody)
        }
        #expect(try await ledger.snapshot(for: "acct-9", at: midnight("2025-05-02")).entitlements.isEmpty)
    }

    @Test func anotherPackageIsRefused() async throws {
        let push = Self.push(
            messageId: "x", ["testNotification": .object(["version": .string("1.0")])], package: "com.other")
        do {
            _ = try await ledger().apply(push)
            Issue.record("another package's notification was applied")
        } catch {
            #expect(error.kind == .packageName)
        }
    }

    @Test func theNewestFetchWinsAndAVoidedTokenStaysVoided() async throws {
        // The void is taken as fact only from an authenticated push (GooglePlayPushAuthenticationTests).
        let ledger = try GooglePlayPushAuthenticationTests.ledger()
        let later = Self.document(Self.subscription(expiry: "2025-04-01T00:00:00Z"), token: "tok", at: "2025-03-01")
        let earlier = Self.document(Self.subscription(expiry: "2025-03-01T00:00:00Z"), token: "tok", at: "2025-02-01")
        #expect(try await ledger.apply(later) == .applied(customers: ["acct-7"]))
        #expect(try await ledger.apply(earlier).name == "noChange", "an older fetch is older than the one kept")
        #expect(try await ledger.snapshot(for: "acct-7", at: midnight("2025-03-15")).isActive("pro"))
        let voided = Self.push(
            messageId: "v1",
            [
                "voidedPurchaseNotification": .object([
                    "purchaseToken": .string("tok"), "orderId": .string("GPA.1"), "productType": .integer(1),
                    "refundType": .integer(1),
                ])
            ])
        #expect(
            try await ledger.apply(GooglePlayPushAuthenticationTests.signed(voided)) == .applied(customers: ["acct-7"]))
        let refetched = Self.document(Self.subscription(expiry: "2025-05-01T00:00:00Z"), token: "tok", at: "2025-03-20")
        _ = try await ledger.apply(refetched)
        #expect(try await ledger.snapshot(for: "acct-7", at: midnight("2025-03-25")).isActive("pro") == false)
        let snapshot = try await ledger.snapshot(for: "acct-7", at: midnight("2025-03-25"))
        #expect(snapshot.verification == .notRequested, "a Play document is never verified")
    }

    @Test func aPartialRefundAsksForARefresh() async throws {
        let voided = Self.push(
            messageId: "v2",
            [
                "voidedPurchaseNotification": .object([
                    "purchaseToken": .string("tok-9"), "orderId": .string("GPA.9"), "productType": .integer(2),
                    "refundType": .integer(2),
                ])
            ])
        #expect(try await ledger().apply(voided) == .refreshNeeded(purchaseToken: "tok-9", productId: nil))
    }

    @Test func aChainedTokenJoinsTheFirstTokensThread() async throws {
        let ledger = ledger()
        _ = try await ledger.apply(
            Self.document(Self.subscription(expiry: "2025-02-01T00:00:00Z"), token: "first", at: "2025-01-02"))
        _ = try await ledger.apply(
            Self.document(
                Self.subscription(expiry: "2025-05-01T00:00:00Z", linked: "first"), token: "second", at: "2025-02-02"))
        let thread = try await ledger.thread(LedgerThreadID(source: .googlePlay, key: "first"))
        #expect(thread?.records.count == 2)
        #expect(try await ledger.snapshot(for: "acct-7", at: midnight("2025-03-01")).isActive("pro"))
    }

    @Test func aTestPurchaseIsSandbox() async throws {
        let document = Self.document(
            Self.subscription(expiry: "2025-04-01T00:00:00Z", test: true), token: "t", at: "2025-02-01")
        do {
            _ = try await ledger().apply(document)
            Issue.record("a test purchase was applied")
        } catch {
            #expect(error.kind == .environment)
        }
    }
}
