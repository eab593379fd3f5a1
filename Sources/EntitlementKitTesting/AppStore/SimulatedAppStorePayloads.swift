import EntitlementKit
import EntitlementKitAppStore
import Foundation

private typealias Field = AppStoreField

/// The payloads Apple would sign for a store account's purchases: StoreKit 2 transactions and subscription
/// renewal infos, with the fields the App Store adapter reads (`../vendors/appstore.md`'s names).
enum SimulatedAppStorePayloads {
    /// The transactions StoreKit's `Transaction.currentEntitlements` lists at `instant`, with a renewal info
    /// for each subscription among them: each non-consumable, each auto-renewable subscription still giving
    /// access (its grace period included), the latest purchase of each non-renewing product (even past its
    /// period); nothing refunded, no consumable. Each is signed when it last changed (StoreKit keeps a JWS
    /// until the App Store changes the transaction), so reading again gives the same JWS.
    static func currentEntitlements(_ purchases: [SimulatedPurchase], bundleId: String, at instant: Date)
        -> [JSONValue]
    {
        var latestNonRenewing: [String: Int] = [:]
        for (index, purchase) in purchases.enumerated() {
            if case .nonRenewing = purchase.kind { latestNonRenewing[purchase.productId] = index }
        }
        var payloads: [JSONValue] = []
        for (index, purchase) in purchases.enumerated() where purchase.refundedAt == nil {
            switch purchase.kind {
            case .consumable: continue
            case .nonRenewing: guard latestNonRenewing[purchase.productId] == index else { continue }
            case .autoRenewable: guard purchase.isActive(at: instant) else { continue }
            case .nonConsumable: break
            }
            payloads.append(transaction(purchase, bundleId: bundleId))
            if case .autoRenewable = purchase.kind {
                payloads.append(renewalInfo(purchase))
            }
        }
        return payloads
    }

    /// The current transaction of `purchase` (its latest renewal), signed when it last changed.
    static func transaction(_ purchase: SimulatedPurchase, bundleId: String) -> JSONValue {
        var members: [String: JSONValue] = [
            Field.transactionId: .string(purchase.currentTransactionId),
            Field.originalTransactionId: .string(purchase.transactionId),
            Field.bundleId: .string(bundleId),
            Field.productId: .string(purchase.productId),
            Field.purchaseDate: milliseconds(purchase.periodStart),
            Field.originalPurchaseDate: milliseconds(purchase.purchasedAt),
            Field.quantity: .integer(1),
            Field.type: .string(typeName(purchase.kind)),
            Field.inAppOwnershipType: .string("PURCHASED"),
            Field.signedDate: milliseconds(purchase.changedAt),
            Field.environment: .string("Sandbox"),
            Field.transactionReason: .string(purchase.renewalCount == 0 ? "PURCHASE" : "RENEWAL"),
            Field.storefront: .string("USA"),
        ]
        if case .autoRenewable = purchase.kind, let end = purchase.periodEnd {
            members[Field.expiresDate] = milliseconds(end)
        }
        if purchase.isInTrial {
            members[Field.offerType] = .integer(1)
            members[Field.offerDiscountType] = .string("FREE_TRIAL")
        }
        if let refundedAt = purchase.refundedAt {
            members[Field.revocationDate] = milliseconds(refundedAt)
            members[Field.revocationReason] = .integer(0)
            members[Field.revocationType] = .string("REFUND_FULL")
        }
        return .object(members)
    }

    /// The renewal info of an auto-renewable `purchase`, signed when it last changed: whether it renews, and
    /// the grace period of a billing issue.
    static func renewalInfo(_ purchase: SimulatedPurchase) -> JSONValue {
        var members: [String: JSONValue] = [
            Field.originalTransactionId: .string(purchase.transactionId),
            Field.productId: .string(purchase.productId),
            Field.autoRenewProductId: .string(purchase.productId),
            Field.autoRenewStatus: .integer(
                purchase.renewState == .willRenew || purchase.billingIssueAt != nil ? 1 : 0),
            Field.isInBillingRetryPeriod: .bool(purchase.billingIssueAt != nil),
            Field.recentSubscriptionStartDate: milliseconds(purchase.purchasedAt),
            Field.signedDate: milliseconds(purchase.changedAt),
            Field.environment: .string("Sandbox"),
        ]
        if purchase.billingIssueAt != nil, let end = purchase.accessEnd, end != purchase.periodEnd {
            members[Field.gracePeriodExpiresDate] = milliseconds(end)
        }
        if let end = purchase.periodEnd, purchase.renewState == .willRenew {
            members[Field.renewalDate] = milliseconds(end)
        }
        return .object(members)
    }

    private static func typeName(_ kind: ScenarioProduct.Kind) -> String {
        switch kind {
        case .autoRenewable: "Auto-Renewable Subscription"
        case .nonRenewing: "Non-Renewing Subscription"
        case .nonConsumable: "Non-Consumable"
        case .consumable: "Consumable"
        }
    }

    private static func milliseconds(_ date: Date) -> JSONValue {
        .integer(date.millisecondsSince1970)
    }
}
