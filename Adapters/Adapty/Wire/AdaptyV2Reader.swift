import EntitlementKit
import Foundation

/// Reads a server API v2 profile (`GET /api/v2/server-side-api/profile/`): `{"data": {…}}` whose
/// `access_levels`, `subscriptions` and `non_subscriptions` are arrays (each may be absent or `null`),
/// with `store_*` key names and no `is_active`, `is_lifetime` or `will_renew`.
enum AdaptyV2Reader {
    static func read(_ root: JSONNode) throws(DocumentError) -> AdaptyV2Profile {
        try root.requireObject()
        let data = try root.required(Field.data)
        try data.requireObject()
        let profileIdNode = try data.required(Field.profileId)
        guard let profileId = try profileIdNode.identifier() else {
            throw profileIdNode.invalid("is empty: a profile needs an id")
        }
        // A v1 container inside a v2 profile would be silently skipped: refuse it rather than read no access.
        if let v1 = try data.optional(Field.paidAccessLevels) {
            throw DocumentError(
                kind: .unrecognizedFormat, path: v1.path,
                reason: "is a v1 container; this server API v2 profile is read with `access_levels`")
        }
        var accessLevels: [AdaptyV2AccessLevel] = []
        var firstPathById: [String: JSONPath] = [:]
        for element in try data.adaptyArrayContainer(Field.accessLevels) {
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
        for element in try data.adaptyArrayContainer(Field.subscriptions) {
            subscriptions.append(try subscription(element))
        }
        var nonSubscriptions: [AdaptyV2NonSubscription] = []
        for element in try data.adaptyArrayContainer(Field.nonSubscriptions) {
            nonSubscriptions.append(try nonSubscription(element))
        }
        return AdaptyV2Profile(
            profileId: profileId,
            customerUserId: try data.optionalIdentifier(Field.customerUserId),
            serverTime: try data.adaptyTimestamp(Field.timestamp),
            accessLevels: accessLevels,
            subscriptions: subscriptions,
            nonSubscriptions: nonSubscriptions
        )
    }

    static func accessLevel(_ node: JSONNode) throws(DocumentError) -> AdaptyV2AccessLevel {
        try node.requireObject()
        let idNode = try node.required(Field.accessLevelId)
        guard let id = try idNode.identifier() else { throw idNode.invalid("is empty: an access level needs an id") }
        let productNode = try node.required(Field.storeProductId)
        guard let productId = try productNode.identifier() else {
            throw productNode.invalid("is empty: an access level needs a product")
        }
        _ = try node.optionalDate(Field.startsAt)
        _ = try node.optionalIdentifier(Field.storeOriginalTransactionId)
        return AdaptyV2AccessLevel(
            id: id,
            idPath: idNode.path,
            store: node.adaptyEnumeration(Field.store),
            storeProductId: productId,
            storeBasePlanId: try node.optionalIdentifier(Field.storeBasePlanId),
            storeTransactionId: try node.optionalIdentifier(Field.storeTransactionId),
            offer: offer(node.member(Field.offer)),
            environment: node.adaptyEnumeration(Field.environment),
            purchasedAt: try node.optionalDate(Field.purchasedAt),
            originallyPurchasedAt: try node.optionalDate(Field.originallyPurchasedAt),
            expiresAt: try node.optionalDate(Field.expiresAt),
            renewalCancelledAt: try renewalCancelledAt(node),
            billingIssueDetectedAt: try node.optionalDate(Field.billingIssueDetectedAt),
            isInGracePeriod: try node.adaptyBool(Field.isInGracePeriod) ?? false,
            gracePeriodExpiresAt: try node.optionalDate(Field.gracePeriodExpiresAt),
            cancellationReason: node.adaptyEnumerationValue(Field.cancellationReason)
        )
    }

    static func subscription(_ node: JSONNode) throws(DocumentError) -> AdaptyV2Subscription {
        try node.requireObject()
        _ = try node.adaptyBool(Field.isInGracePeriod)
        _ = try node.adaptyBool(Field.isFamilyShared)
        _ = try node.optionalDate(Field.billingIssueDetectedAt)
        _ = try renewalCancelledAt(node)
        return AdaptyV2Subscription(
            store: node.adaptyEnumeration(Field.store),
            environment: node.adaptyEnumeration(Field.environment),
            storeProductId: try node.optionalIdentifier(Field.storeProductId),
            storeTransactionId: try node.optionalIdentifier(Field.storeTransactionId),
            storeOriginalTransactionId: try node.optionalIdentifier(Field.storeOriginalTransactionId),
            purchasedAt: try node.optionalDate(Field.purchasedAt),
            originallyPurchasedAt: try node.optionalDate(Field.originallyPurchasedAt),
            expiresAt: try node.optionalDate(Field.expiresAt),
            refundedAt: try node.optionalDate(Field.refundedAt),
            gracePeriodExpiresAt: try node.optionalDate(Field.gracePeriodExpiresAt)
        )
    }

    static func nonSubscription(_ node: JSONNode) throws(DocumentError) -> AdaptyV2NonSubscription {
        try node.requireObject()
        _ = try node.adaptyBool(Field.isRefund)
        return AdaptyV2NonSubscription(
            store: node.adaptyEnumeration(Field.store),
            environment: node.adaptyEnumeration(Field.environment),
            storeProductId: try node.optionalIdentifier(Field.storeProductId),
            storeTransactionId: try node.optionalIdentifier(Field.storeTransactionId),
            storeOriginalTransactionId: try node.optionalIdentifier(Field.storeOriginalTransactionId),
            purchasedAt: try node.optionalDate(Field.purchasedAt),
            isConsumable: try node.adaptyBool(Field.isConsumable) ?? false
        )
    }

    /// `renewal_cancelled_at`; the docs' field table spells it `renew_cancelled_at`, read as well.
    static func renewalCancelledAt(_ node: JSONNode) throws(DocumentError) -> Date? {
        let spelled = try node.optionalDate(Field.renewalCancelledAt)
        let tableSpelling = try node.optionalDate(Field.renewCancelledAt)
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
                category: node.adaptyEnumeration(Field.category) ?? node.adaptyEnumeration(Field.offerCategory),
                type: node.adaptyEnumeration(Field.type) ?? node.adaptyEnumeration(Field.offerType))
        default: return AdaptyV2Offer(category: nil, type: nil)
        }
    }
}
