import EntitlementKit
import Foundation

/// Reads a server API v2 profile (`GET /api/v2/server-side-api/profile/`): `{"data": {…}}` whose
/// `access_levels`, `subscriptions` and `non_subscriptions` are arrays (each may be absent or `null`),
/// with `store_*` key names and no `is_active`, `is_lifetime` or `will_renew`.
enum AdaptyV2Reader {
    static func read(_ root: JSONNode) throws(DocumentError) -> AdaptyV2Profile {
        try root.adaptyRequireObject()
        let data = try root.required("data")
        try data.adaptyRequireObject()
        let profileIdNode = try data.required("profile_id")
        guard let profileId = try profileIdNode.identifier() else {
            throw profileIdNode.invalid("is empty: a profile needs an id")
        }
        // A v1 container inside a v2 profile would be silently skipped: refuse it rather than read no access.
        if let v1 = try data.optional("paid_access_levels") {
            throw DocumentError(
                kind: .unrecognizedFormat, path: v1.path,
                reason: "is a v1 container; this server API v2 profile is read with `access_levels`")
        }
        var accessLevels: [AdaptyV2AccessLevel] = []
        var firstPathById: [String: JSONPath] = [:]
        for element in try data.adaptyArrayContainer("access_levels") {
            let level = try accessLevel(element)
            if let earlier = firstPathById[level.id] {
                throw DocumentError(
                    kind: .inconsistent, path: level.idPath, offending: .string(level.id),
                    reason: "repeats the access level id at \(earlier); the profile is ambiguous")
            }
            firstPathById[level.id] = level.idPath
            accessLevels.append(level)
        }
        var subscriptions: [AdaptyV2Subscription] = []
        for element in try data.adaptyArrayContainer("subscriptions") {
            subscriptions.append(try subscription(element))
        }
        var nonSubscriptions: [AdaptyV2NonSubscription] = []
        for element in try data.adaptyArrayContainer("non_subscriptions") {
            nonSubscriptions.append(try nonSubscription(element))
        }
        return AdaptyV2Profile(
            profileId: profileId,
            customerUserId: try data.adaptyIdentifier("customer_user_id"),
            serverTime: try data.adaptyTimestamp("timestamp"),
            accessLevels: accessLevels,
            subscriptions: subscriptions,
            nonSubscriptions: nonSubscriptions
        )
    }

    static func accessLevel(_ node: JSONNode) throws(DocumentError) -> AdaptyV2AccessLevel {
        try node.adaptyRequireObject()
        let idNode = try node.required("access_level_id")
        guard let id = try idNode.identifier() else { throw idNode.invalid("is empty: an access level needs an id") }
        let productNode = try node.required("store_product_id")
        guard let productId = try productNode.identifier() else {
            throw productNode.invalid("is empty: an access level needs a product")
        }
        _ = try node.adaptyDate("starts_at")
        _ = try node.adaptyIdentifier("store_original_transaction_id")
        return AdaptyV2AccessLevel(
            id: id,
            idPath: idNode.path,
            store: node.adaptyEnumeration("store"),
            storeProductId: productId,
            storeBasePlanId: try node.adaptyIdentifier("store_base_plan_id"),
            storeTransactionId: try node.adaptyIdentifier("store_transaction_id"),
            offer: offer(node.member("offer")),
            environment: node.adaptyEnumeration("environment"),
            purchasedAt: try node.adaptyDate("purchased_at"),
            originallyPurchasedAt: try node.adaptyDate("originally_purchased_at"),
            expiresAt: try node.adaptyDate("expires_at"),
            renewalCancelledAt: try renewalCancelledAt(node),
            billingIssueDetectedAt: try node.adaptyDate("billing_issue_detected_at"),
            isInGracePeriod: try node.adaptyBool("is_in_grace_period") ?? false,
            gracePeriodExpiresAt: try node.adaptyDate("grace_period_expires_at"),
            cancellationReason: node.adaptyEnumerationValue("cancellation_reason")
        )
    }

    static func subscription(_ node: JSONNode) throws(DocumentError) -> AdaptyV2Subscription {
        try node.adaptyRequireObject()
        _ = try node.adaptyBool("is_in_grace_period")
        _ = try node.adaptyBool("is_family_shared")
        _ = try node.adaptyDate("billing_issue_detected_at")
        _ = try renewalCancelledAt(node)
        return AdaptyV2Subscription(
            store: node.adaptyEnumeration("store"),
            environment: node.adaptyEnumeration("environment"),
            storeProductId: try node.adaptyIdentifier("store_product_id"),
            storeTransactionId: try node.adaptyIdentifier("store_transaction_id"),
            storeOriginalTransactionId: try node.adaptyIdentifier("store_original_transaction_id"),
            purchasedAt: try node.adaptyDate("purchased_at"),
            originallyPurchasedAt: try node.adaptyDate("originally_purchased_at"),
            expiresAt: try node.adaptyDate("expires_at"),
            refundedAt: try node.adaptyDate("refunded_at"),
            gracePeriodExpiresAt: try node.adaptyDate("grace_period_expires_at")
        )
    }

    static func nonSubscription(_ node: JSONNode) throws(DocumentError) -> AdaptyV2NonSubscription {
        try node.adaptyRequireObject()
        _ = try node.adaptyBool("is_refund")
        return AdaptyV2NonSubscription(
            store: node.adaptyEnumeration("store"),
            environment: node.adaptyEnumeration("environment"),
            storeProductId: try node.adaptyIdentifier("store_product_id"),
            storeTransactionId: try node.adaptyIdentifier("store_transaction_id"),
            storeOriginalTransactionId: try node.adaptyIdentifier("store_original_transaction_id"),
            purchasedAt: try node.adaptyDate("purchased_at"),
            isConsumable: try node.adaptyBool("is_consumable") ?? false
        )
    }

    /// `renewal_cancelled_at`; the docs' field table spells it `renew_cancelled_at`, read as well.
    static func renewalCancelledAt(_ node: JSONNode) throws(DocumentError) -> Date? {
        let spelled = try node.adaptyDate("renewal_cancelled_at")
        let tableSpelling = try node.adaptyDate("renew_cancelled_at")
        return spelled ?? tableSpelling
    }

    /// `offer`: `{category, type}` on access levels, `{offer_category, offer_type}` in the docs'
    /// subscription example; both read. Absent or `null` is no offer; any other non-object is an offer
    /// of a kind nobody can tell (period `unknown`).
    static func offer(_ node: JSONNode?) -> AdaptyV2Offer? {
        switch node?.kind {
        case nil, .null?: return nil
        case .object?:
            guard let node else { return nil }
            return AdaptyV2Offer(
                category: node.adaptyEnumeration("category") ?? node.adaptyEnumeration("offer_category"),
                type: node.adaptyEnumeration("type") ?? node.adaptyEnumeration("offer_type"))
        default: return AdaptyV2Offer(category: nil, type: nil)
        }
    }
}
