import EntitlementKit
import EntitlementKitQonversion
import Foundation

private typealias Field = QonversionField

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
                Field.id: .string(grant.entitlementId),
                Field.associatedProduct: .string(purchase.productId),
                Field.active: .integer(purchase.isActive(at: view.instant) ? 1 : 0),
                Field.renewState: .integer(renewStateCode(purchase.renewState)),
                Field.source: .string(purchase.store == .playStore ? "playstore" : "appstore"),
                Field.currentPeriodType: .string(purchase.isInTrial ? "trial" : "normal"),
                Field.grantType: .string("purchase"),
                Field.startedTimestamp: seconds(purchase.purchasedAt),
                Field.firstPurchaseTimestamp: seconds(purchase.purchasedAt),
                Field.lastPurchaseTimestamp: seconds(purchase.periodStart),
                Field.renewsCount: .integer(Int64(purchase.renewalCount)),
                Field.storeTransactions: .array([transaction(purchase)]),
            ]
            if let end = purchase.accessEnd { permission[Field.expirationTimestamp] = seconds(end) }
            if let disabled = purchase.autoRenewDisabledAt {
                permission[Field.autoRenewDisableTimestamp] = seconds(disabled)
            }
            if purchase.isInTrial { permission[Field.trialStartTimestamp] = seconds(purchase.purchasedAt) }
            permissions.append(.object(permission))
        }
        return .object([
            Field.success: .bool(true),
            Field.data: .object([
                Field.uid: .string(view.customer.originalAppUserId),
                Field.timestamp: seconds(view.instant),
                Field.permissions: .array(permissions),
                Field.products: .array([]),
                Field.userProducts: .array([]),
            ]),
        ])
    }

    private static func transaction(_ purchase: SimulatedPurchase) -> JSONValue {
        var transaction: [String: JSONValue] = [
            Field.originalTransactionId: .string(purchase.transactionId),
            Field.transactionId: .string(purchase.currentTransactionId),
            Field.transactionTimestamp: seconds(purchase.periodStart),
            Field.environment: .string("production"),
            Field.ownershipType: .string("owner"),
        ]
        if let end = purchase.periodEnd { transaction[Field.expirationTimestamp] = seconds(end) }
        if let refunded = purchase.refundedAt { transaction[Field.transactionRevokeTimestamp] = seconds(refunded) }
        switch purchase.kind {
        case .autoRenewable:
            transaction[Field.type] = .string(
                purchase.isInTrial
                    ? "trial_started" : purchase.renewalCount == 0 ? "subscription_started" : "subscription_renewed")
        case .nonConsumable:
            transaction[Field.type] = .string("nonconsumable_purchase")
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
