import EntitlementKit
import Foundation

// The parts of RevenueCat's `GET /v1/subscribers/{app_user_id}` body the mapping reads, already
// type-checked. The same body is what the SDKs cache as CustomerInfo (plus `schema_version` and friends)
// and what they called PurchaserInfo before SDK 4. Everything else in the document is ignored.
//
// These types are internal: the public face of the module is the unified model plus
// `RevenueCatCustomerInfo`.

/// The whole response: the server's clock and the customer.
struct RevenueCatResponse: Sendable, Hashable {
    /// `request_date`: the server's time when it answered.
    var requestDate: Date
    /// `subscriber`.
    var subscriber: RevenueCatSubscriber
}

/// `subscriber`: one customer and everything they bought.
struct RevenueCatSubscriber: Sendable, Hashable {
    /// `original_app_user_id`: the first app user id RevenueCat knew; aliases merge into it.
    var originalAppUserId: String
    /// `first_seen`.
    var firstSeen: Date
    /// `management_url`, `nil` when absent or unusable (RevenueCat's SDK tolerates bad values here).
    var managementURL: URL?
    /// `original_application_version` (App Store only).
    var originalApplicationVersion: String?
    /// `original_purchase_date`: the app's first download or purchase (App Store only).
    var originalPurchaseDate: Date?
    /// `subscriptions`, keyed by bare store product id.
    var subscriptions: [String: RevenueCatSubscription]
    /// `non_subscriptions`: each product's purchases in the order RevenueCat lists them (ascending).
    var nonSubscriptions: [String: [RevenueCatNonSubscription]]
    /// `entitlements`, active and expired alike, keyed by entitlement id.
    var entitlements: [String: RevenueCatEntitlementRecord]
}

/// `subscriptions[productId]`: the latest period of one auto-renewing product.
struct RevenueCatSubscription: Sendable, Hashable {
    /// The bare product id (the member's key).
    var productId: String
    /// `purchase_date`: the start of the latest period. Required.
    var purchaseDate: Date
    /// `original_purchase_date`: the start of the subscription chain.
    var originalPurchaseDate: Date?
    /// `expires_date`: the end of the latest period; `nil` means no expiry.
    var expiresDate: Date?
    /// `period_type` as sent (tolerant).
    var periodType: LenientRawValue
    /// `store` as sent (tolerant).
    var store: LenientRawValue
    /// `is_sandbox`; absent or `null` is `false`.
    var isSandbox: Bool
    /// `unsubscribe_detected_at`.
    var unsubscribeDetectedAt: Date?
    /// `billing_issues_detected_at`.
    var billingIssuesDetectedAt: Date?
    /// `grace_period_expires_date`.
    var gracePeriodExpiresDate: Date?
    /// `refunded_at`.
    var refundedAt: Date?
    /// `ownership_type` as sent (tolerant).
    var ownershipType: LenientRawValue
    /// `product_plan_identifier`: the Google Play base plan.
    var productPlanIdentifier: String?
    /// `store_transaction_id`: the store's id of the latest transaction.
    var storeTransactionId: String?
}

/// `non_subscriptions[productId][i]`: one one-time purchase.
struct RevenueCatNonSubscription: Sendable, Hashable {
    /// The product id (the member's key).
    var productId: String
    /// Where it sits in its product's list; keeps sorting deterministic.
    var index: Int
    /// `store_transaction_id`.
    var storeTransactionId: String?
    /// `purchase_date`. Required.
    var purchaseDate: Date
    /// `original_purchase_date`.
    var originalPurchaseDate: Date?
    /// `store` as sent (tolerant).
    var store: LenientRawValue
    /// `is_sandbox`. Required, as in RevenueCat's SDK.
    var isSandbox: Bool
}

/// `entitlements[entitlementId]`: what the server decided about one entitlement.
struct RevenueCatEntitlementRecord: Sendable, Hashable {
    /// The entitlement id (the member's key).
    var id: String
    /// `product_identifier`: the bare product id, the join key into the purchases. Required.
    var productIdentifier: String
    /// `expires_date`: decides access; `nil` means no expiry.
    var expiresDate: Date?
    /// `purchase_date`: the latest purchase or renewal.
    var purchaseDate: Date?
    /// `grace_period_expires_date`.
    var gracePeriodExpiresDate: Date?
}

/// A field RevenueCat's SDK reads tolerantly: a bad value there never fails the document.
enum LenientRawValue: Sendable, Hashable {
    /// The member is absent or `null`.
    case absent
    /// A string, kept as sent.
    case text(String)
    /// Present, but not a string (a number, an object…).
    case unreadable

    /// The string, when there is one.
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
