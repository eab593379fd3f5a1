import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import EntitlementKitStripe
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

/// One customer with an App Store subscription (notifications signed with the test kit's throwaway chain)
/// and a Stripe subscription (signed webhooks) for the same entitlement: through the ledger the snapshot
/// gives the grant with the latest access, whatever the order of delivery, duplicates included.
@Suite("A Stripe and an App Store subscription in one ledger", .timeLimit(.minutes(5)))
struct StripeAndAppStoreLedgerTests {
    static let bundleId = "com.acme.trails"
    static let accountToken = "0b6f3a52-9d0e-4c8e-8d53-6f7f1e2a9c41"
    static let catalog = EntitlementCatalog(products: [
        "com.acme.trails.pro.monthly": .init(entitlementIds: ["pro"]), "prod_Pro": .init(entitlementIds: ["pro"]),
    ])

    static func milliseconds(_ text: String) -> JSONValue {
        .integer(Int64(instant(text).timeIntervalSince1970 * 1000))
    }

    /// A `SUBSCRIBED` notification for a monthly App Store subscription bought 2025-09-01, expiring at
    /// `expires`, its transaction carrying the customer's account token.
    static func appStoreNotification(signer: AppStoreTestSigner, expires: String, uuid: String) -> LedgerNotification {
        let transaction = JSONValue.object([
            "transactionId": .string("2000000100"), "originalTransactionId": .string("2000000100"),
            "bundleId": .string(bundleId), "productId": .string("com.acme.trails.pro.monthly"),
            "purchaseDate": milliseconds("2025-09-01T00:00:00Z"),
            "originalPurchaseDate": milliseconds("2025-09-01T00:00:00Z"), "expiresDate": milliseconds(expires),
            "quantity": .integer(1), "type": .string("Auto-Renewable Subscription"),
            "inAppOwnershipType": .string("PURCHASED"), "signedDate": milliseconds("2025-09-01T00:00:05Z"),
            "environment": .string("Production"), "transactionReason": .string("PURCHASE"),
            "storefront": .string("USA"), "appAccountToken": .string(accountToken),
        ])
        let renewal = JSONValue.object([
            "originalTransactionId": .string("2000000100"), "productId": .string("com.acme.trails.pro.monthly"),
            "autoRenewProductId": .string("com.acme.trails.pro.monthly"), "autoRenewStatus": .integer(1),
            "signedDate": milliseconds("2025-09-01T00:00:05Z"), "environment": .string("Production"),
        ])
        let payload = JSONValue.object([
            "notificationType": .string("SUBSCRIBED"), "subtype": .string("INITIAL_BUY"),
            "notificationUUID": .string(uuid), "version": .string("2.0"),
            "signedDate": milliseconds("2025-09-01T00:00:05Z"),
            "data": .object([
                "bundleId": .string(bundleId), "environment": .string("Production"),
                "signedTransactionInfo": .string(signer.sign(transaction)),
                "signedRenewalInfo": .string(signer.sign(renewal)), "status": .integer(1),
            ]),
        ])
        let body = JSONValue.object(["signedPayload": .string(signer.sign(payload))]).compactText
        return LedgerNotification(
            source: .appStore, body: Data(body.utf8), receivedAt: instant("2025-09-01T00:00:06Z"))
    }

    /// A `customer.subscription.created` webhook for a Stripe subscription of `prod_Pro` whose period ends
    /// at `periodEnd`, naming the customer `alice` in its metadata.
    static func stripeWebhook(periodEnd: String) -> LedgerNotification {
        let object = subscription(
            id: "sub_web", items: [subscriptionItem(periodStart: "2025-09-02T00:00:00Z", periodEnd: periodEnd)],
            extra: ["metadata": ["app_user_id": "alice"]])
        return StripeLedgerTests.webhook(
            stripeEvent(
                "customer.subscription.created", id: "evt_web", created: "2025-09-02T00:00:00Z", object: object),
            signedAt: instant("2025-09-02T00:00:01Z"), receivedAt: instant("2025-09-02T00:00:02Z"))
    }

    func ledger(signer: AppStoreTestSigner) -> EntitlementLedger {
        EntitlementLedger(sources: [
            AppStoreLedgerSource(
                catalog: Self.catalog, bundleId: Self.bundleId, rootCertificates: [signer.rootCertificate]),
            StripeLedgerSource(catalog: Self.catalog, webhookSecrets: [StripeLedgerTests.secret]),
        ])
    }

    @Test(arguments: [
        // (App Store expiry, Stripe period end, the store whose grant wins)
        ("2025-10-01T00:00:00Z", "2025-10-15T00:00:00Z", Store.stripe),
        ("2025-11-01T00:00:00Z", "2025-10-02T00:00:00Z", Store.appStore),
    ])
    func theGrantWithTheLatestAccessWinsInEitherOrderWithDuplicates(
        appStoreExpiry: String, stripePeriodEnd: String, winner: Store
    ) async throws {
        let signer = try AppStoreTestSigner()
        let appStore = Self.appStoreNotification(
            signer: signer, expires: appStoreExpiry, uuid: "8a1f0d3e-7b44-4b59-9f2c-2d0c4e6a1b01")
        let stripe = Self.stripeWebhook(periodEnd: stripePeriodEnd)
        let latest = try #require([appStoreExpiry, stripePeriodEnd].map(instant).max())
        let earlier = try #require([appStoreExpiry, stripePeriodEnd].map(instant).min())
        for order in [[appStore, stripe], [stripe, appStore]] {
            let ledger = ledger(signer: signer)
            _ = try await ledger.link(accountToken: Self.accountToken, to: "alice")
            for notification in order { _ = try await ledger.apply(notification) }
            for notification in order + order.reversed() {
                #expect(try await ledger.apply(notification) == .duplicate)
            }
            #expect(try await ledger.customers() == [["alice"]])
            let snapshot = try await ledger.snapshot(for: "alice", at: instant("2025-09-20T00:00:00Z"))
            let pro = try #require(snapshot["pro"])
            #expect(pro.isActive)
            #expect(pro.store == winner)
            #expect(pro.expirationDate == latest)
            #expect(pro.transactions.contains { $0.store == winner })
            #expect(snapshot.verification == .verified)
            // Past the earlier expiry, the later grant still holds; past both, nothing does.
            let between = try await ledger.snapshot(for: "alice", at: earlier.addingTimeInterval(3_600))
            #expect(between["pro"]?.isActive == true)
            let after = try await ledger.snapshot(for: "alice", at: latest.addingTimeInterval(1))
            #expect(after["pro"]?.isActive == false)
        }
    }
}
