import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitStripe
import EntitlementKitTesting
import Foundation

/// The inputs the ledger bench applies, made before any clock starts: App Store notifications signed by
/// the test kit's throwaway chain (every JWS verified by the ledger as a real one), Play
/// `SubscriptionPurchaseV2` documents and Stripe subscriptions as the server fetches them.
struct LedgerBenchInputs {
    static let bundleId = "com.acme.trails"
    static let packageName = "com.acme.trails"
    static let catalog = EntitlementCatalog(products: [
        "com.acme.trails.pro.monthly": .init(entitlementIds: ["pro"]), "trails_pro": .init(entitlementIds: ["pro"]),
        "prod_Pro": .init(entitlementIds: ["pro"]),
    ])
    /// 2025-01-01T00:00:00Z, the first purchase.
    static let start: Int64 = 1_735_689_600_000
    static let day: Int64 = 86_400_000

    let signer: AppStoreTestSigner
    /// Every id this run makes starts with it, so two runs into one folder never collide.
    let run = String(UInt32.random(in: 0...UInt32.max), radix: 16)

    init() throws { signer = try AppStoreTestSigner() }

    /// The App Store notification of renewal `renewal` (0 = the purchase) of subscription `thread`, received
    /// the instant it was signed: one transaction and one renewal info inside, three signatures in all.
    func appStoreNotification(thread: Int, renewal: Int) -> LedgerNotification {
        let original = "\(run)\(String(format: "%09d", thread))"
        // Daily periods: a thousand renewals stay within the test chain's validity.
        let purchase = Self.start + Int64(renewal) * Self.day
        let signed = purchase + 60_000
        let transaction = JSONValue.object([
            AppStoreField.transactionId: .string(renewal == 0 ? original : "\(original)r\(renewal)"),
            AppStoreField.originalTransactionId: .string(original), AppStoreField.bundleId: .string(Self.bundleId),
            AppStoreField.productId: .string("com.acme.trails.pro.monthly"),
            AppStoreField.purchaseDate: .integer(purchase),
            AppStoreField.originalPurchaseDate: .integer(Self.start),
            AppStoreField.expiresDate: .integer(purchase + Self.day),
            AppStoreField.quantity: .integer(1), AppStoreField.type: .string("Auto-Renewable Subscription"),
            AppStoreField.inAppOwnershipType: .string("PURCHASED"), AppStoreField.signedDate: .integer(signed),
            AppStoreField.environment: .string("Production"),
            AppStoreField.transactionReason: .string(renewal == 0 ? "PURCHASE" : "RENEWAL"),
            AppStoreField.storefront: .string("USA"),
            AppStoreField.appAccountToken: .string(Self.uuid(run: run, thread)),
        ])
        let renewalInfo = JSONValue.object([
            AppStoreField.originalTransactionId: .string(original),
            AppStoreField.productId: .string("com.acme.trails.pro.monthly"),
            AppStoreField.autoRenewProductId: .string("com.acme.trails.pro.monthly"),
            AppStoreField.autoRenewStatus: .integer(1),
            AppStoreField.recentSubscriptionStartDate: .integer(Self.start), AppStoreField.signedDate: .integer(signed),
            AppStoreField.environment: .string("Production"),
        ])
        let payload = JSONValue.object([
            AppStoreField.notificationType: .string(renewal == 0 ? "SUBSCRIBED" : "DID_RENEW"),
            AppStoreField.notificationUUID: .string(Self.uuid(run: run, thread * 10_000 + renewal)),
            AppStoreField.data: .object([
                AppStoreField.bundleId: .string(Self.bundleId), AppStoreField.environment: .string("Production"),
                AppStoreField.signedTransactionInfo: .string(signer.sign(transaction)),
                AppStoreField.signedRenewalInfo: .string(signer.sign(renewalInfo)),
            ]),
            AppStoreField.version: .string("2.0"), AppStoreField.signedDate: .integer(signed),
        ])
        let body = JSONValue.object([AppStoreField.signedPayload: .string(signer.sign(payload))])
        return LedgerNotification(
            source: .appStore, body: Data(body.compactText.utf8), receivedAt: Self.date(signed))
    }

    /// Renewal `renewal` of Play subscription `thread`, fetched by the server for its app user.
    func playDocument(thread: Int, renewal: Int) -> LedgerDocument {
        let expiry = Self.start + Int64(renewal + 1) * 30 * Self.day
        let purchase = JSONValue.object([
            GooglePlayField.kind: .string("androidpublisher#subscriptionPurchaseV2"),
            GooglePlayField.subscriptionState: .string("SUBSCRIPTION_STATE_ACTIVE"),
            GooglePlayField.startTime: .string(RFC3339.string(from: Self.date(Self.start))),
            GooglePlayField.lineItems: .array([
                .object([
                    GooglePlayField.productId: .string("trails_pro"),
                    GooglePlayField.expiryTime: .string(RFC3339.string(from: Self.date(expiry))),
                    GooglePlayField.autoRenewingPlan: .object([GooglePlayField.autoRenewEnabled: .bool(true)]),
                ])
            ]),
            GooglePlayField.externalAccountIdentifiers: .object([
                GooglePlayField.obfuscatedExternalAccountId: .string("acct-\(run)-\(thread)")
            ]),
        ])
        return LedgerDocument(
            source: .googlePlay, body: Data(purchase.compactText.utf8), purchaseToken: "token-\(run)-\(thread)",
            appUserId: "play-\(run)-\(thread)", receivedAt: Self.date(expiry - 30 * Self.day + 60_000))
    }

    /// Renewal `renewal` of Stripe subscription `thread`, fetched by the server (its metadata names the
    /// app user).
    func stripeDocument(thread: Int, renewal: Int) -> LedgerDocument {
        let periodStart = (Self.start + Int64(renewal) * 30 * Self.day) / 1000
        let subscription = JSONValue.object([
            StripeField.id: .string("sub_\(run)\(thread)"), StripeField.object: .string("subscription"),
            StripeField.status: .string("active"),
            StripeField.livemode: .bool(true), StripeField.created: .integer(Self.start / 1000),
            StripeField.startDate: .integer(Self.start / 1000),
            StripeField.customer: .string("cus_\(run)\(thread)"),
            StripeField.metadata: .object(["app_user_id": .string("web-\(run)-\(thread)")]),
            StripeField.items: .object([
                StripeField.object: .string("list"), StripeField.hasMore: .bool(false),
                StripeField.url: .string("/v1/subscription_items"),
                StripeField.data: .array([
                    .object([
                        StripeField.id: .string("si_\(run)\(thread)"), StripeField.object: .string("subscription_item"),
                        StripeField.price: .object([
                            StripeField.id: .string("price_pro"), StripeField.object: .string("price"),
                            StripeField.product: .string("prod_Pro"),
                            StripeField.lookupKey: .null,
                        ]),
                        StripeField.currentPeriodStart: .integer(periodStart),
                        StripeField.currentPeriodEnd: .integer(periodStart + 30 * Self.day / 1000),
                    ])
                ]),
            ]),
        ])
        return LedgerDocument(
            source: .stripe, body: Data(subscription.compactText.utf8),
            receivedAt: Self.date(periodStart * 1000 + 60_000))
    }

    /// A version 4 UUID whose last group is `number` (and whose first is this run's).
    static func uuid(run: String, _ number: Int) -> String {
        let prefix = String(repeating: "0", count: max(0, 8 - run.count)) + run
        return prefix + "-0000-4000-8000-" + String(format: "%012d", number)
    }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
