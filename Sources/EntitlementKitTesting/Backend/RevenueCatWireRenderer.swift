import EntitlementKit
import EntitlementKitRevenueCat
import Foundation

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
                "expires_date": date(purchase.accessEnd),
                "grace_period_expires_date": purchase.billingIssueAt != nil ? date(purchase.accessEnd) : .null,
                "product_identifier": .string(purchase.productId),
                "purchase_date": date(purchase.periodStart),
            ])
        }
        var subscriptions: [String: JSONValue] = [:]
        for (productId, purchase) in view.subscriptionsByProduct {
            subscriptions[productId] = .object([
                "auto_resume_date": .null,
                "billing_issues_detected_at": date(purchase.billingIssueAt),
                "expires_date": date(purchase.refundedAt ?? purchase.periodEnd),
                "grace_period_expires_date": purchase.billingIssueAt != nil ? date(purchase.accessEnd) : .null,
                "is_sandbox": .bool(false),
                "original_purchase_date": date(purchase.purchasedAt),
                "ownership_type": .string("PURCHASED"),
                "period_type": .string(purchase.isInTrial ? "trial" : "normal"),
                "purchase_date": date(purchase.periodStart),
                "refunded_at": date(purchase.refundedAt),
                "store": .string(storeName(purchase.store)),
                "store_transaction_id": .string(purchase.currentTransactionId),
                "unsubscribe_detected_at": date(purchase.autoRenewDisabledAt),
            ])
        }
        var nonSubscriptions: [String: [JSONValue]] = [:]
        for purchase in view.purchases {
            if case .autoRenewable = purchase.kind { continue }
            nonSubscriptions[purchase.productId, default: []].append(
                .object([
                    "id": .string("rc_" + purchase.transactionId),
                    "is_sandbox": .bool(false),
                    "original_purchase_date": date(purchase.purchasedAt),
                    "purchase_date": date(purchase.purchasedAt),
                    "store": .string(storeName(purchase.store)),
                    "store_transaction_id": .string(purchase.transactionId),
                ]))
        }
        return .object([
            "request_date": date(view.instant),
            "request_date_ms": .integer(view.instant.millisecondsSince1970),
            "subscriber": .object([
                "entitlements": .object(entitlements),
                "first_seen": date(view.customer.firstSeen),
                "last_seen": date(view.instant),
                "management_url": .null,
                "non_subscriptions": .object(nonSubscriptions.mapValues(JSONValue.array)),
                "original_app_user_id": .string(view.customer.originalAppUserId),
                "original_application_version": .null,
                "original_purchase_date": .null,
                "other_purchases": .object([:]),
                "subscriptions": .object(subscriptions),
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
