import EntitlementKit
import EntitlementKitRevenueCat
import Foundation

private typealias Field = RevenueCatField

/// Renders a customer as RevenueCat's `GET /v1/subscribers/{app_user_id}` body: `request_date`, and a
/// `subscriber` with `entitlements` (expired ones included; `expires_date` always present, `null` for
/// lifetime, already including a billing-issue grace period), `subscriptions` keyed by product id and
/// `non_subscriptions` (lifetime, non-renewing and consumable purchases, oldest first).
enum RevenueCatWireRenderer {
    static func subscriber(_ view: CustomerView) -> JSONValue {
        var entitlements: [String: JSONValue] = [:]
        for grant in view.grants {
            let purchase = grant.purchase
            entitlements[grant.entitlementId] = .object([
                Field.expiresDate: date(purchase.accessEnd),
                Field.gracePeriodExpiresDate: purchase.billingIssueAt != nil ? date(purchase.accessEnd) : .null,
                Field.productIdentifier: .string(purchase.productId),
                Field.purchaseDate: date(purchase.periodStart),
            ])
        }
        var subscriptions: [String: JSONValue] = [:]
        for (productId, purchase) in view.subscriptionsByProduct {
            subscriptions[productId] = .object([
                Field.autoResumeDate: .null,
                Field.billingIssuesDetectedAt: date(purchase.billingIssueAt),
                Field.expiresDate: date(purchase.refundedAt ?? purchase.periodEnd),
                Field.gracePeriodExpiresDate: purchase.billingIssueAt != nil ? date(purchase.accessEnd) : .null,
                Field.isSandbox: .bool(false),
                Field.originalPurchaseDate: date(purchase.purchasedAt),
                Field.ownershipType: .string("PURCHASED"),
                Field.periodType: .string(purchase.isInTrial ? "trial" : "normal"),
                Field.purchaseDate: date(purchase.periodStart),
                Field.refundedAt: date(purchase.refundedAt),
                Field.store: .string(storeName(purchase.store)),
                Field.storeTransactionId: .string(purchase.currentTransactionId),
                Field.unsubscribeDetectedAt: date(purchase.autoRenewDisabledAt),
            ])
        }
        var nonSubscriptions: [String: [JSONValue]] = [:]
        for purchase in view.purchases {
            if case .autoRenewable = purchase.kind { continue }
            nonSubscriptions[purchase.productId, default: []].append(
                .object([
                    Field.id: .string("rc_" + purchase.transactionId),
                    Field.isSandbox: .bool(false),
                    Field.originalPurchaseDate: date(purchase.purchasedAt),
                    Field.purchaseDate: date(purchase.purchasedAt),
                    Field.store: .string(storeName(purchase.store)),
                    Field.storeTransactionId: .string(purchase.transactionId),
                ]))
        }
        return .object([
            Field.requestDate: date(view.instant),
            Field.requestDateMs: .integer(view.instant.millisecondsSince1970),
            Field.subscriber: .object([
                Field.entitlements: .object(entitlements),
                Field.firstSeen: date(view.customer.firstSeen),
                Field.lastSeen: date(view.instant),
                Field.managementURL: .null,
                Field.nonSubscriptions: .object(nonSubscriptions.mapValues(JSONValue.array)),
                Field.originalAppUserId: .string(view.customer.originalAppUserId),
                Field.originalApplicationVersion: .null,
                Field.originalPurchaseDate: .null,
                Field.otherPurchases: .object([:]),
                Field.subscriptions: .object(subscriptions),
            ]),
        ])
    }

    private static func date(_ date: Date?) -> JSONValue {
        date.map { .string(RFC3339.string(from: $0)) } ?? .null
    }

    private static func storeName(_ store: Store) -> String {
        // A simulated purchase is the App Store's or Google Play's; both are named.
        store.revenueCatName ?? "app_store"
    }
}
