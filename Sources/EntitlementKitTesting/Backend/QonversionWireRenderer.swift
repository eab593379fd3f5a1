import EntitlementKit
import Foundation

/// Renders a customer as Qonversion's v1 launch result (`POST v1/user/init` and the restore call): a
/// `permissions` element per entitlement with `active` 0/1 at true time, the integer `renew_state`
/// (−1 non-renewable, 1 will renew, 2 cancelled, 3 billing issue), whole seconds since the epoch, and the
/// latest store transaction (with `transaction_revoke_timestamp` after a refund).
enum QonversionWireRenderer {
    static func launchResult(_ view: CustomerView) -> JSONValue {
        var permissions: [JSONValue] = []
        for grant in view.grants {
            let purchase = grant.purchase
            var permission: [String: JSONValue] = [
                "id": .string(grant.entitlementId),
                "associated_product": .string(purchase.productId),
                "active": .integer(purchase.isActive(at: view.instant) ? 1 : 0),
                "renew_state": .integer(renewStateCode(purchase.renewState)),
                "source": .string(purchase.store == .playStore ? "playstore" : "appstore"),
                "current_period_type": .string(purchase.isInTrial ? "trial" : "normal"),
                "grant_type": .string("purchase"),
                "started_timestamp": seconds(purchase.purchasedAt),
                "first_purchase_timestamp": seconds(purchase.purchasedAt),
                "last_purchase_timestamp": seconds(purchase.periodStart),
                "renews_count": .integer(Int64(purchase.renewalCount)),
                "store_transactions": .array([transaction(purchase)]),
            ]
            if let end = purchase.accessEnd { permission["expiration_timestamp"] = seconds(end) }
            if let disabled = purchase.autoRenewDisabledAt {
                permission["auto_renew_disable_timestamp"] = seconds(disabled)
            }
            if purchase.isInTrial { permission["trial_start_timestamp"] = seconds(purchase.purchasedAt) }
            permissions.append(.object(permission))
        }
        return .object([
            "success": .bool(true),
            "data": .object([
                "uid": .string(view.customer.originalAppUserId),
                "timestamp": seconds(view.instant),
                "permissions": .array(permissions),
                "products": .array([]),
                "user_products": .array([]),
            ]),
        ])
    }

    private static func transaction(_ purchase: SimulatedPurchase) -> JSONValue {
        var transaction: [String: JSONValue] = [
            "original_transaction_id": .string(purchase.transactionId),
            "transaction_id": .string(purchase.currentTransactionId),
            "transaction_timestamp": seconds(purchase.periodStart),
            "environment": .string("production"),
            "ownership_type": .string("owner"),
        ]
        if let end = purchase.periodEnd { transaction["expiration_timestamp"] = seconds(end) }
        if let refunded = purchase.refundedAt { transaction["transaction_revoke_timestamp"] = seconds(refunded) }
        switch purchase.kind {
        case .autoRenewable:
            transaction["type"] = .string(
                purchase.isInTrial
                    ? "trial_started" : purchase.renewalCount == 0 ? "subscription_started" : "subscription_renewed")
        case .nonConsumable:
            transaction["type"] = .string("nonconsumable_purchase")
        case .nonRenewing, .consumable:
            break
        }
        return .object(transaction)
    }

    private static func renewStateCode(_ state: RenewState) -> Int64 {
        switch state {
        case .willRenew: 1
        case .cancelled: 2
        case .billingIssue: 3
        default: -1
        }
    }

    private static func seconds(_ date: Date) -> JSONValue {
        .integer(date.wholeSecondsSince1970)
    }
}
