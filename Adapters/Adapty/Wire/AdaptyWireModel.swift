import EntitlementKit
import Foundation

// What the wire readers extract from Adapty's documents, before mapping. Values stay as Adapty spelled
// them (raw store names, offer types, cancellation reasons); the mapping decides what they mean.
// Shapes A (SDK backend), B (server API v1) and D (bridge) share one profile layout, read into the
// `AdaptyProfile…` types; shape C (server API v2) has its own, read into the `AdaptyV2…` types.

/// Which of Adapty's four documents a body is.
enum AdaptyShape: Sendable, Hashable {
    /// `{"data": {"type": "adapty_analytics_profile", "id": …, "attributes": PROFILE}}`.
    case sdkBackend
    /// `{"data": PROFILE}`.
    case serverV1
    /// `PROFILE` bare, or the bridge reply `{"success": PROFILE}`.
    case bridge
    /// `{"data": {… "access_levels": […], "subscriptions": […], "non_subscriptions": […]}}`.
    case serverV2
}

/// One Adapty profile of shape A, B or D.
struct AdaptyProfile: Sendable, Hashable {
    var profileId: String
    var customerUserId: String?
    /// `timestamp` when positive.
    var serverTime: Date?
    /// `paid_access_levels`, in key order.
    var accessLevels: [AdaptyAccessLevel]
    /// `subscriptions`, keyed by vendor product id.
    var subscriptions: [String: AdaptySubscription]
    /// Every element of `non_subscriptions`, in key order then wire order.
    var nonSubscriptions: [AdaptyNonSubscription]
}

/// `paid_access_levels[id]`.
struct AdaptyAccessLevel: Sendable, Hashable {
    /// The member's key (equal to its `id` when that is sent).
    var id: String
    var isActive: Bool
    /// `vendor_product_id` as sent (a Play subscription's is `product:base_plan`).
    var vendorProductId: String
    /// `base_plan_id` (server API v1 only).
    var basePlanId: String? = nil
    var store: String? = nil
    var activatedAt: Date? = nil
    var renewedAt: Date? = nil
    var expiresAt: Date? = nil
    var isLifetime: Bool
    /// `will_renew`; `nil` when not sent.
    var willRenew: Bool? = nil
    var isInGracePeriod: Bool
    var isRefund: Bool
    var unsubscribedAt: Date? = nil
    var billingIssueDetectedAt: Date? = nil
    var introductoryOffer: AdaptyEnumerationValue
    var promotionalOffer: AdaptyEnumerationValue
    var cancellationReason: AdaptyEnumerationValue = .none
}

/// A field Adapty fills with one of its enumeration strings and whose mere presence means something:
/// an offer type (`active_introductory_offer_type`, `active_promotional_offer_type`: an offer applies) or
/// `cancellation_reason` (Adapty says why). Such a field decides no access, so a value of another JSON type
/// does not fail the document; it still counts as sent, because the contract's rules turn on "non-null",
/// not on "a string".
enum AdaptyEnumerationValue: Sendable, Hashable {
    /// Absent or `null`: Adapty does not say.
    case none
    /// A string, kept as sent.
    case named(String)
    /// Present and not `null`, but not a string (`3`, `true`, `{}`): said, in no value anyone can name.
    case unnamed

    /// The string sent, `nil` when none was.
    var name: String? {
        guard case .named(let name) = self else { return nil }
        return name
    }
}

/// `subscriptions[product]`: the latest period of one store product.
struct AdaptySubscription: Sendable, Hashable {
    var vendorProductId: String
    var store: String? = nil
    var vendorTransactionId: String? = nil
    var vendorOriginalTransactionId: String? = nil
    var activatedAt: Date? = nil
    var renewedAt: Date? = nil
    var expiresAt: Date? = nil
    /// `is_sandbox`; `nil` when not sent.
    var isSandbox: Bool? = nil
}

/// `non_subscriptions[product][i]`: one one-time purchase.
struct AdaptyNonSubscription: Sendable, Hashable {
    /// `vendor_product_id`, or the container's key when not sent.
    var vendorProductId: String
    /// The `non_subscriptions` key it is listed under: the join key of access levels.
    var productKey: String
    var store: String? = nil
    var vendorTransactionId: String? = nil
    var vendorOriginalTransactionId: String? = nil
    var purchasedAt: Date? = nil
    var isSandbox: Bool? = nil
    /// `is_consumable`, or the deprecated `is_one_time`.
    var isConsumable: Bool
}

/// One server API v2 profile (`data`).
struct AdaptyV2Profile: Sendable, Hashable {
    var profileId: String
    var customerUserId: String?
    var serverTime: Date?
    var accessLevels: [AdaptyV2AccessLevel]
    var subscriptions: [AdaptyV2Subscription]
    var nonSubscriptions: [AdaptyV2NonSubscription]
}

/// A v2 `offer`: `{category, type, id}` (the subscription example spells them `offer_category`, …).
struct AdaptyV2Offer: Sendable, Hashable {
    var category: String?
    var type: String?
}

/// `access_levels[i]` of server API v2.
struct AdaptyV2AccessLevel: Sendable, Hashable {
    var id: String
    var idPath: JSONPath
    var store: String? = nil
    var storeProductId: String
    var storeBasePlanId: String? = nil
    var storeTransactionId: String? = nil
    /// `nil` when absent or `null`.
    var offer: AdaptyV2Offer? = nil
    var environment: String? = nil
    var purchasedAt: Date? = nil
    var originallyPurchasedAt: Date? = nil
    var expiresAt: Date? = nil
    var renewalCancelledAt: Date? = nil
    var billingIssueDetectedAt: Date? = nil
    var isInGracePeriod: Bool
    var gracePeriodExpiresAt: Date? = nil
    var cancellationReason: AdaptyEnumerationValue = .none
}

/// `subscriptions[i]` of server API v2.
struct AdaptyV2Subscription: Sendable, Hashable {
    var store: String? = nil
    var environment: String? = nil
    var storeProductId: String? = nil
    var storeTransactionId: String? = nil
    var storeOriginalTransactionId: String? = nil
    var purchasedAt: Date? = nil
    var originallyPurchasedAt: Date? = nil
    var expiresAt: Date? = nil
    var refundedAt: Date? = nil
    var gracePeriodExpiresAt: Date? = nil
}

/// `non_subscriptions[i]` of server API v2.
struct AdaptyV2NonSubscription: Sendable, Hashable {
    var store: String? = nil
    var environment: String? = nil
    var storeProductId: String? = nil
    var storeTransactionId: String? = nil
    var storeOriginalTransactionId: String? = nil
    var purchasedAt: Date? = nil
    var isConsumable: Bool
}

/// How the readers compare two ids that must agree (an access level's `id` and its key, the envelope's
/// `data.id` and `attributes.profile_id`): as the bytes sent. Swift's `==` takes canonically equivalent
/// text for equal — a decomposed `café` for the composed one, a Kelvin sign for `K` — yet those are two
/// different ids to a backend that stores and looks them up as bytes.
enum AdaptyId {
    /// Whether `first` and `second` are the same UTF-8 bytes.
    static func same(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8)
    }

    /// A note for the error about two ids that differ only in their Unicode spelling, which print alike.
    static func spellingNote(_ first: String, _ second: String) -> String {
        first == second ? " (the same text spelt with other Unicode code points: ids are compared byte for byte)" : ""
    }
}
