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
        try root.adaptyRequireObject()
        switch shape {
        case .sdkBackend:
            let data = try root.required("data")
            try data.adaptyRequireObject()
            let attributes = try data.required("attributes")
            try attributes.adaptyRequireObject()
            let profile = try read(profile: attributes)
            // The envelope names the profile too; two different ids leave it unclear whose profile this is.
            if let envelopeId = try data.optional("id") {
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
            let data = try root.required("data")
            try data.adaptyRequireObject()
            return try read(profile: data)
        case .bridge, .serverV2:
            guard let success = root.member("success") else { return try read(profile: root) }
            try success.adaptyRequireObject()
            return try read(profile: success)
        }
    }

    static func read(profile node: JSONNode) throws(DocumentError) -> AdaptyProfile {
        let profileIdNode = try node.required("profile_id")
        guard let profileId = try profileIdNode.identifier() else {
            throw profileIdNode.invalid("is empty: a profile needs an id")
        }
        // A v2 container inside a v1 profile would be silently skipped: refuse it rather than read no access.
        if let v2 = try node.optional("access_levels") {
            throw DocumentError(
                kind: .unrecognizedFormat, path: v2.path,
                reason: "is server API v2's container; this profile is read with `paid_access_levels`")
        }
        var accessLevels: [AdaptyAccessLevel] = []
        for (key, level) in try node.adaptyObjectContainer("paid_access_levels") {
            accessLevels.append(try accessLevel(key: key, level))
        }
        var subscriptions: [String: AdaptySubscription] = [:]
        for (key, element) in try node.adaptyObjectContainer("subscriptions") {
            subscriptions[key] = try subscription(key: key, element)
        }
        var nonSubscriptions: [AdaptyNonSubscription] = []
        for (key, list) in try node.adaptyObjectContainer("non_subscriptions") where !list.isNull {
            for element in try list.elements() {
                nonSubscriptions.append(try nonSubscription(key: key, element))
            }
        }
        return AdaptyProfile(
            profileId: profileId,
            customerUserId: try node.adaptyIdentifier("customer_user_id"),
            serverTime: try node.adaptyTimestamp("timestamp"),
            accessLevels: accessLevels,
            subscriptions: subscriptions,
            nonSubscriptions: nonSubscriptions
        )
    }

    static func accessLevel(key: String, _ node: JSONNode) throws(DocumentError) -> AdaptyAccessLevel {
        try node.adaptyRequireObject()
        // iOS trusts the `id` field, Android the key: when both are there they must agree.
        if let idNode = try node.optional("id") {
            let id = try idNode.string()
            guard AdaptyId.same(id, key) else {
                throw DocumentError(
                    kind: .inconsistent, path: idNode.path, offending: idNode.value,
                    reason: "disagrees with its key \(JSONValue.string(key).compactText)"
                        + AdaptyId.spellingNote(id, key))
            }
        }
        guard !key.isEmpty else { throw node.invalid("has an empty key: an access level needs an id") }
        let productNode = try node.required("vendor_product_id")
        guard let vendorProductId = try productNode.identifier() else {
            throw productNode.invalid("is empty: an access level needs a product")
        }
        let isLifetime = try node.adaptyBool("is_lifetime") ?? false
        let expiresAt = try node.adaptyDate("expires_at")
        if isLifetime, expiresAt != nil, let expires = node.member("expires_at") {
            throw DocumentError(
                kind: .inconsistent, path: expires.path, offending: expires.value,
                reason: "contradicts `is_lifetime: true`: a lifetime access level has no expiry")
        }
        _ = try node.adaptyDate("starts_at")
        return AdaptyAccessLevel(
            id: key,
            isActive: try node.required("is_active").bool(),
            vendorProductId: vendorProductId,
            basePlanId: try node.adaptyIdentifier("base_plan_id"),
            store: node.adaptyEnumeration("store"),
            activatedAt: try node.adaptyDate("activated_at"),
            renewedAt: try node.adaptyDate("renewed_at"),
            expiresAt: expiresAt,
            isLifetime: isLifetime,
            willRenew: try node.adaptyBool("will_renew"),
            isInGracePeriod: try node.adaptyBool("is_in_grace_period") ?? false,
            isRefund: try node.adaptyBool("is_refund") ?? false,
            unsubscribedAt: try node.adaptyDate("unsubscribed_at"),
            billingIssueDetectedAt: try node.adaptyDate("billing_issue_detected_at"),
            introductoryOffer: node.adaptyEnumerationValue("active_introductory_offer_type"),
            promotionalOffer: node.adaptyEnumerationValue("active_promotional_offer_type"),
            cancellationReason: node.adaptyEnumerationValue("cancellation_reason")
        )
    }

    static func subscription(key: String, _ node: JSONNode) throws(DocumentError) -> AdaptySubscription {
        try node.adaptyRequireObject()
        for flag in ["is_active", "is_lifetime", "will_renew", "is_in_grace_period", "is_refund"] {
            _ = try node.adaptyBool(flag)
        }
        for date in ["starts_at", "unsubscribed_at", "billing_issue_detected_at"] {
            _ = try node.adaptyDate(date)
        }
        return AdaptySubscription(
            vendorProductId: try node.adaptyIdentifier("vendor_product_id") ?? key,
            store: node.adaptyEnumeration("store"),
            vendorTransactionId: try node.adaptyIdentifier("vendor_transaction_id"),
            vendorOriginalTransactionId: try node.adaptyIdentifier("vendor_original_transaction_id"),
            activatedAt: try node.adaptyDate("activated_at"),
            renewedAt: try node.adaptyDate("renewed_at"),
            expiresAt: try node.adaptyDate("expires_at"),
            isSandbox: try node.adaptyBool("is_sandbox")
        )
    }

    static func nonSubscription(key: String, _ node: JSONNode) throws(DocumentError) -> AdaptyNonSubscription {
        try node.adaptyRequireObject()
        _ = try node.adaptyBool("is_refund")
        _ = try node.adaptyIdentifier("purchase_id")
        // `is_one_time` is the key iOS SDKs before 2.4 (2023) wrote for `is_consumable`.
        let isConsumable = try node.adaptyBool("is_consumable") ?? false
        let isOneTime = try node.adaptyBool("is_one_time") ?? false
        return AdaptyNonSubscription(
            vendorProductId: try node.adaptyIdentifier("vendor_product_id") ?? key,
            productKey: key,
            store: node.adaptyEnumeration("store"),
            vendorTransactionId: try node.adaptyIdentifier("vendor_transaction_id"),
            vendorOriginalTransactionId: try node.adaptyIdentifier("vendor_original_transaction_id"),
            purchasedAt: try node.adaptyDate("purchased_at"),
            isSandbox: try node.adaptyBool("is_sandbox"),
            isConsumable: isConsumable || isOneTime
        )
    }
}
