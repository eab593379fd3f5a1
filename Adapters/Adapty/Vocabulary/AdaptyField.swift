/// Adapty's JSON member names, each spelled once: the adapter's readers, its format detection and its live
/// provider use them, and the test kit's simulated backend writes them.
///
/// Computed literals rather than stored constants: a read costs what the literal did (no lazy global).
package enum AdaptyField {
    // The envelopes: the SDK backend's `{"data": {"type", "id", "attributes"}}`, server API's `data`, the bridge's
    // `success`, and the error replies.
    package static var data: String { "data" }
    package static var success: String { "success" }
    package static var type: String { "type" }
    package static var id: String { "id" }
    package static var attributes: String { "attributes" }
    package static var error: String { "error" }
    package static var errors: String { "errors" }
    package static var errorCode: String { "error_code" }
    package static var detail: String { "detail" }
    package static var code: String { "code" }

    // A profile (shapes A, B and D; server API v2 shares the scalars).
    package static var profileId: String { "profile_id" }
    package static var customerUserId: String { "customer_user_id" }
    package static var segmentHash: String { "segment_hash" }
    package static var timestamp: String { "timestamp" }
    package static var isTestUser: String { "is_test_user" }
    package static var customAttributes: String { "custom_attributes" }
    package static var paidAccessLevels: String { "paid_access_levels" }
    package static var accessLevels: String { "access_levels" }
    package static var subscriptions: String { "subscriptions" }
    package static var nonSubscriptions: String { "non_subscriptions" }

    // An access level, a subscription, a one-time purchase (shapes A, B and D).
    package static var vendorProductId: String { "vendor_product_id" }
    package static var basePlanId: String { "base_plan_id" }
    package static var store: String { "store" }
    package static var isActive: String { "is_active" }
    package static var activatedAt: String { "activated_at" }
    package static var renewedAt: String { "renewed_at" }
    package static var expiresAt: String { "expires_at" }
    package static var startsAt: String { "starts_at" }
    package static var isLifetime: String { "is_lifetime" }
    package static var willRenew: String { "will_renew" }
    package static var isInGracePeriod: String { "is_in_grace_period" }
    package static var isRefund: String { "is_refund" }
    package static var unsubscribedAt: String { "unsubscribed_at" }
    package static var billingIssueDetectedAt: String { "billing_issue_detected_at" }
    package static var activeIntroductoryOfferType: String { "active_introductory_offer_type" }
    package static var activePromotionalOfferType: String { "active_promotional_offer_type" }
    package static var cancellationReason: String { "cancellation_reason" }
    package static var vendorTransactionId: String { "vendor_transaction_id" }
    package static var vendorOriginalTransactionId: String { "vendor_original_transaction_id" }
    package static var isSandbox: String { "is_sandbox" }
    package static var purchaseId: String { "purchase_id" }
    package static var purchasedAt: String { "purchased_at" }
    package static var isConsumable: String { "is_consumable" }
    package static var isOneTime: String { "is_one_time" }

    // Server API v2: an access level, a subscription, a one-time purchase, an offer.
    package static var accessLevelId: String { "access_level_id" }
    package static var storeProductId: String { "store_product_id" }
    package static var storeBasePlanId: String { "store_base_plan_id" }
    package static var storeTransactionId: String { "store_transaction_id" }
    package static var storeOriginalTransactionId: String { "store_original_transaction_id" }
    package static var offer: String { "offer" }
    package static var environment: String { "environment" }
    package static var originallyPurchasedAt: String { "originally_purchased_at" }
    package static var renewalCancelledAt: String { "renewal_cancelled_at" }
    package static var renewCancelledAt: String { "renew_cancelled_at" }
    package static var gracePeriodExpiresAt: String { "grace_period_expires_at" }
    package static var refundedAt: String { "refunded_at" }
    package static var isFamilyShared: String { "is_family_shared" }
    package static var category: String { "category" }
    package static var offerCategory: String { "offer_category" }
    package static var offerType: String { "offer_type" }

    // The requests' attributes (store validation and restore).
    package static var originalTransactionId: String { "original_transaction_id" }
    package static var requestSource: String { "request_source" }
    package static var receiptEncoded: String { "receipt_encoded" }
    package static var productId: String { "product_id" }
    package static var purchaseToken: String { "purchase_token" }
    package static var items: String { "items" }
}

/// The short name the adapter's readers use for ``AdaptyField``.
typealias Field = AdaptyField
