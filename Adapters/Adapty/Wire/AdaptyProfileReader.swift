import EntitlementKit
import Foundation

/// Reads the profile of shapes A (SDK backend), B (server API v1) and D (bridge): one layout with
/// objects keyed by id — `paid_access_levels` by access-level id, `subscriptions` by vendor product id,
/// `non_subscriptions` by vendor product id to an array of purchases.
///
/// Every container may be absent or `null` (Adapty's own samples send `null`), read as empty. Keys the
/// reader does not know are ignored; the fields it reads must have the type Adapty's SDKs decode them as.
enum AdaptyProfileReader {
    static func read(_ root: JSONNode, shape: AdaptyShape) throws(DocumentError) -> AdaptyProfile {
        try root.requireObject()
        switch shape {
        case .sdkBackend:
            let data = try root.required(Field.data)
            try data.requireObject()
            let attributes = try data.required(Field.attributes)
            try attributes.requireObject()
            let profile = try read(profile: attributes)
            // The envelope names the profile too; two different ids leave it unclear whose profile this is.
            if let envelopeId = try data.optional(Field.id) {
                let id = try envelopeId.string()
                guard AdaptyId.same(id, profile.profileId) else {
                    throw DocumentError(
                        kind: .inconsistent, path: envelopeId.path, offending: envelopeId.value,
                        reason:
                            "disagrees with `attributes.profile_id` (\(JSONValue.string(profile.profileId).compactText))"
                            + AdaptyId.spellingNote(id, profile.profileId))
                }
            }
            return profile
        case .serverV1:
            let data = try root.required(Field.data)
            try data.requireObject()
            return try read(profile: data)
        case .bridge, .serverV2:
            guard let success = root.member(Field.success) else { return try read(profile: root) }
            try success.requireObject()
            return try read(profile: success)
        }
    }

    static func read(profile node: JSONNode) throws(DocumentError) -> AdaptyProfile {
        let profileIdNode = try node.required(Field.profileId)
        guard let profileId = try profileIdNode.identifier() else {
            throw profileIdNode.invalid("is empty: a profile needs an id")
        }
        // A v2 container inside a v1 profile would be silently skipped: refuse it rather than read no access.
        if let v2 = try node.optional(Field.accessLevels) {
            throw DocumentError(
                kind: .unrecognizedFormat, path: v2.path,
                reason: "is server API v2's container; this profile is read with `paid_access_levels`")
        }
        var accessLevels: [AdaptyAccessLevel] = []
        for (key, level) in try node.adaptyObjectContainer(Field.paidAccessLevels) {
            accessLevels.append(try accessLevel(key: key, level))
        }
        var subscriptions: [String: AdaptySubscription] = [:]
        for (key, element) in try node.adaptyObjectContainer(Field.subscriptions) {
            subscriptions[key] = try subscription(key: key, element)
        }
        var nonSubscriptions: [AdaptyNonSubscription] = []
        for (key, list) in try node.adaptyObjectContainer(Field.nonSubscriptions) where !list.isNull {
            for element in try list.elements() {
                nonSubscriptions.append(try nonSubscription(key: key, element))
            }
        }
        return AdaptyProfile(
            profileId: profileId,
            customerUserId: try node.optionalIdentifier(Field.customerUserId),
            serverTime: try node.adaptyTimestamp(Field.timestamp),
            accessLevels: accessLevels,
            subscriptions: subscriptions,
            nonSubscriptions: nonSubscriptions
        )
    }

    static func accessLevel(key: String, _ node: JSONNode) throws(DocumentError) -> AdaptyAccessLevel {
        try node.requireObject()
        // iOS trusts the `id` field, Android the key: when both are there they must agree.
        if let idNode = try node.optional(Field.id) {
            let id = try idNode.string()
            guard AdaptyId.same(id, key) else {
                throw DocumentError(
                    kind: .inconsistent, path: idNode.path, offending: idNode.value,
                    reason: "disagrees with its key \(JSONValue.string(key).compactText)"
                        + AdaptyId.spellingNote(id, key))
            }
        }
        guard !key.isEmpty else { throw node.invalid("has an empty key: an access level needs an id") }
        let productNode = try node.required(Field.vendorProductId)
        guard let vendorProductId = try productNode.identifier() else {
            throw productNode.invalid("is empty: an access level needs a product")
        }
        let isLifetime = try node.adaptyBool(Field.isLifetime) ?? false
        let expiresAt = try node.optionalDate(Field.expiresAt)
        if isLifetime, expiresAt != nil, let expires = node.member(Field.expiresAt) {
            throw DocumentError(
                kind: .inconsistent, path: expires.path, offending: expires.value,
                reason: "contradicts `is_lifetime: true`: a lifetime access level has no expiry")
        }
        _ = try node.optionalDate(Field.startsAt)
        return AdaptyAccessLevel(
            id: key,
            isActive: try node.required(Field.isActive).bool(),
            vendorProductId: vendorProductId,
            basePlanId: try node.optionalIdentifier(Field.basePlanId),
            store: node.adaptyEnumeration(Field.store),
            activatedAt: try node.optionalDate(Field.activatedAt),
            renewedAt: try node.optionalDate(Field.renewedAt),
            expiresAt: expiresAt,
            isLifetime: isLifetime,
            willRenew: try node.adaptyBool(Field.willRenew),
            isInGracePeriod: try node.adaptyBool(Field.isInGracePeriod) ?? false,
            isRefund: try node.adaptyBool(Field.isRefund) ?? false,
            unsubscribedAt: try node.optionalDate(Field.unsubscribedAt),
            billingIssueDetectedAt: try node.optionalDate(Field.billingIssueDetectedAt),
            introductoryOffer: node.adaptyEnumerationValue(Field.activeIntroductoryOfferType),
            promotionalOffer: node.adaptyEnumerationValue(Field.activePromotionalOfferType),
            cancellationReason: node.adaptyEnumerationValue(Field.cancellationReason)
        )
    }

    static func subscription(key: String, _ node: JSONNode) throws(DocumentError) -> AdaptySubscription {
        try node.requireObject()
        for flag in [Field.isActive, Field.isLifetime, Field.willRenew, Field.isInGracePeriod, Field.isRefund] {
            _ = try node.adaptyBool(flag)
        }
        for date in [Field.startsAt, Field.unsubscribedAt, Field.billingIssueDetectedAt] {
            _ = try node.optionalDate(date)
        }
        return AdaptySubscription(
            vendorProductId: try node.optionalIdentifier(Field.vendorProductId) ?? key,
            store: node.adaptyEnumeration(Field.store),
            vendorTransactionId: try node.optionalIdentifier(Field.vendorTransactionId),
            vendorOriginalTransactionId: try node.optionalIdentifier(Field.vendorOriginalTransactionId),
            activatedAt: try node.optionalDate(Field.activatedAt),
            renewedAt: try node.optionalDate(Field.renewedAt),
            expiresAt: try node.optionalDate(Field.expiresAt),
            isSandbox: try node.adaptyBool(Field.isSandbox)
        )
    }

    static func nonSubscription(key: String, _ node: JSONNode) throws(DocumentError) -> AdaptyNonSubscription {
        try node.requireObject()
        _ = try node.adaptyBool(Field.isRefund)
        _ = try node.optionalIdentifier(Field.purchaseId)
        // `is_one_time` is the key iOS SDKs before 2.4 (2023) wrote for `is_consumable`.
        let isConsumable = try node.adaptyBool(Field.isConsumable) ?? false
        let isOneTime = try node.adaptyBool(Field.isOneTime) ?? false
        return AdaptyNonSubscription(
            vendorProductId: try node.optionalIdentifier(Field.vendorProductId) ?? key,
            productKey: key,
            store: node.adaptyEnumeration(Field.store),
            vendorTransactionId: try node.optionalIdentifier(Field.vendorTransactionId),
            vendorOriginalTransactionId: try node.optionalIdentifier(Field.vendorOriginalTransactionId),
            purchasedAt: try node.optionalDate(Field.purchasedAt),
            isSandbox: try node.adaptyBool(Field.isSandbox),
            isConsumable: isConsumable || isOneTime
        )
    }
}
