/// RevenueCat's JSON member names, each spelled once: the adapter's reader, its format markers and its live
/// provider use them, and the test kit's simulated backend writes them.
///
/// Computed literals rather than stored constants: a read costs what the literal did (no lazy global).
package enum RevenueCatField {
    // `GET /v1/subscribers/{app_user_id}`: the response.
    package static var requestDate: String { "request_date" }
    package static var requestDateMs: String { "request_date_ms" }
    package static var subscriber: String { "subscriber" }

    // The subscriber.
    package static var originalAppUserId: String { "original_app_user_id" }
    package static var firstSeen: String { "first_seen" }
    package static var lastSeen: String { "last_seen" }
    package static var managementURL: String { "management_url" }
    package static var originalApplicationVersion: String { "original_application_version" }
    package static var originalPurchaseDate: String { "original_purchase_date" }
    package static var otherPurchases: String { "other_purchases" }
    package static var entitlements: String { "entitlements" }
    package static var subscriptions: String { "subscriptions" }
    package static var nonSubscriptions: String { "non_subscriptions" }

    // An entitlement, a subscription, a one-time purchase.
    package static var id: String { "id" }
    package static var productIdentifier: String { "product_identifier" }
    package static var purchaseDate: String { "purchase_date" }
    package static var expiresDate: String { "expires_date" }
    package static var gracePeriodExpiresDate: String { "grace_period_expires_date" }
    package static var periodType: String { "period_type" }
    package static var store: String { "store" }
    package static var isSandbox: String { "is_sandbox" }
    package static var autoResumeDate: String { "auto_resume_date" }
    package static var unsubscribeDetectedAt: String { "unsubscribe_detected_at" }
    package static var billingIssuesDetectedAt: String { "billing_issues_detected_at" }
    package static var refundedAt: String { "refunded_at" }
    package static var ownershipType: String { "ownership_type" }
    package static var productPlanIdentifier: String { "product_plan_identifier" }
    package static var storeTransactionId: String { "store_transaction_id" }

    // An error body (`{"code": 7225, "message": "…"}`).
    package static var code: String { "code" }
    package static var message: String { "message" }

    // The requests' bodies: `POST /v1/subscribers/identify` and `POST /v1/receipts`.
    package static var appUserId: String { "app_user_id" }
    package static var newAppUserId: String { "new_app_user_id" }
    package static var fetchToken: String { "fetch_token" }
    package static var isRestore: String { "is_restore" }
    package static var productId: String { "product_id" }
    package static var productIds: String { "product_ids" }
}

/// The short name the adapter's readers use for ``RevenueCatField``.
typealias Field = RevenueCatField
