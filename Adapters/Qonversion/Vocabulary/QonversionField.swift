/// Qonversion's JSON member names, each spelled once: the adapter's three readers, its format detection and
/// its live provider use them, and the test kit's simulated backend writes them.
///
/// Computed literals rather than stored constants: a read costs what the literal did (no lazy global).
package enum QonversionField {
    // The v1 launch result's envelope (`POST v1/user/init`, `purchase`, `restore`) and its error.
    package static var success: String { "success" }
    package static var data: String { "data" }
    package static var error: String { "error" }
    package static var message: String { "message" }
    package static var uid: String { "uid" }
    package static var timestamp: String { "timestamp" }
    package static var appleExtra: String { "apple_extra" }
    package static var originalApplicationVersion: String { "original_application_version" }
    package static var permissions: String { "permissions" }
    package static var products: String { "products" }
    package static var userProducts: String { "user_products" }

    // A v1 entitlement (`data.permissions[i]`).
    package static var id: String { "id" }
    package static var active: String { "active" }
    package static var associatedProduct: String { "associated_product" }
    package static var renewState: String { "renew_state" }
    package static var source: String { "source" }
    package static var currentPeriodType: String { "current_period_type" }
    package static var grantType: String { "grant_type" }
    package static var startedTimestamp: String { "started_timestamp" }
    package static var expirationTimestamp: String { "expiration_timestamp" }
    package static var trialStartTimestamp: String { "trial_start_timestamp" }
    package static var firstPurchaseTimestamp: String { "first_purchase_timestamp" }
    package static var lastPurchaseTimestamp: String { "last_purchase_timestamp" }
    package static var autoRenewDisableTimestamp: String { "auto_renew_disable_timestamp" }
    package static var renewsCount: String { "renews_count" }
    package static var lastActivatedOfferCode: String { "last_activated_offer_code" }
    package static var storeTransactions: String { "store_transactions" }

    // A v1 store transaction (`store_transactions[i]`).
    package static var transactionId: String { "transaction_id" }
    package static var originalTransactionId: String { "original_transaction_id" }
    package static var offerCode: String { "offer_code" }
    package static var transactionTimestamp: String { "transaction_timestamp" }
    package static var transactionRevokeTimestamp: String { "transaction_revoke_timestamp" }
    package static var environment: String { "environment" }
    package static var ownershipType: String { "ownership_type" }
    package static var type: String { "type" }

    // The REST lists (`GET v3/users/{id}/entitlements`, `v4`): the envelope, an item, its product.
    package static var object: String { "object" }
    package static var url: String { "url" }
    package static var hasMore: String { "has_more" }
    package static var nextCursor: String { "next_cursor" }
    package static var isActive: String { "is_active" }
    package static var started: String { "started" }
    package static var expires: String { "expires" }
    package static var startedAt: String { "started_at" }
    package static var expiresAt: String { "expires_at" }
    package static var product: String { "product" }
    package static var productId: String { "product_id" }
    package static var subscription: String { "subscription" }

    // The requests' bodies (`v1/user/init`, `restore`, `purchase`, `v2/identities`).
    package static var accessToken: String { "access_token" }
    package static var qUid: String { "q_uid" }
    package static var clientUid: String { "client_uid" }
    package static var debugMode: String { "debug_mode" }
    package static var receipt: String { "receipt" }
    package static var history: String { "history" }
    package static var purchase: String { "purchase" }
    package static var purchaseToken: String { "purchase_token" }
    package static var anonId: String { "anon_id" }
    package static var identityId: String { "identity_id" }
}

/// The short name the adapter's readers use for ``QonversionField``.
typealias Field = QonversionField
