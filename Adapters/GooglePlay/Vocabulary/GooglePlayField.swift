/// Google Play's JSON member names, each spelled once: the adapter's readers and its format detection use them,
/// and the test kit's simulated Play purchases and pushes write them.
///
/// Computed literals rather than stored constants: a read costs what the literal did (no lazy global).
package enum GooglePlayField {
    // The Developer API's resources (`purchases.subscriptionsv2.get`, `purchases.products.get`), the adapter's
    // listing of them, and the API's error body.
    package static var kind: String { "kind" }
    package static var subscriptions: String { "subscriptions" }
    package static var products: String { "products" }
    package static var purchaseToken: String { "purchaseToken" }
    package static var purchase: String { "purchase" }
    package static var error: String { "error" }
    package static var code: String { "code" }
    package static var message: String { "message" }

    // A SubscriptionPurchaseV2 and its line items.
    package static var subscriptionState: String { "subscriptionState" }
    package static var startTime: String { "startTime" }
    package static var latestOrderId: String { "latestOrderId" }
    package static var linkedPurchaseToken: String { "linkedPurchaseToken" }
    package static var canceledStateContext: String { "canceledStateContext" }
    package static var userInitiatedCancellation: String { "userInitiatedCancellation" }
    package static var cancelTime: String { "cancelTime" }
    package static var testPurchase: String { "testPurchase" }
    package static var externalAccountIdentifiers: String { "externalAccountIdentifiers" }
    package static var obfuscatedExternalAccountId: String { "obfuscatedExternalAccountId" }
    package static var acknowledgementState: String { "acknowledgementState" }
    package static var lineItems: String { "lineItems" }
    package static var productId: String { "productId" }
    package static var expiryTime: String { "expiryTime" }
    package static var autoRenewingPlan: String { "autoRenewingPlan" }
    package static var autoRenewEnabled: String { "autoRenewEnabled" }
    package static var prepaidPlan: String { "prepaidPlan" }
    package static var offerDetails: String { "offerDetails" }
    package static var basePlanId: String { "basePlanId" }
    package static var offerId: String { "offerId" }
    package static var offerPhase: String { "offerPhase" }
    package static var latestSuccessfulOrderId: String { "latestSuccessfulOrderId" }
    package static var signupPromotion: String { "signupPromotion" }
    package static var vanityCode: String { "vanityCode" }
    package static var promotionCode: String { "promotionCode" }
    package static var oneTimeCode: String { "oneTimeCode" }

    // A ProductPurchase, and the v1 SubscriptionPurchase's marks.
    package static var purchaseTimeMillis: String { "purchaseTimeMillis" }
    package static var purchaseState: String { "purchaseState" }
    package static var consumptionState: String { "consumptionState" }
    package static var orderId: String { "orderId" }
    package static var purchaseType: String { "purchaseType" }
    package static var quantity: String { "quantity" }
    package static var refundableQuantity: String { "refundableQuantity" }
    package static var expiryTimeMillis: String { "expiryTimeMillis" }
    package static var paymentState: String { "paymentState" }

    // A real-time developer notification and its Pub/Sub push envelope.
    package static var version: String { "version" }
    package static var packageName: String { "packageName" }
    package static var eventTimeMillis: String { "eventTimeMillis" }
    package static var notificationType: String { "notificationType" }
    package static var subscriptionNotification: String { "subscriptionNotification" }
    package static var subscriptionId: String { "subscriptionId" }
    package static var oneTimeProductNotification: String { "oneTimeProductNotification" }
    package static var sku: String { "sku" }
    package static var voidedPurchaseNotification: String { "voidedPurchaseNotification" }
    package static var productType: String { "productType" }
    package static var refundType: String { "refundType" }
    package static var testNotification: String { "testNotification" }
    package static var messageId: String { "messageId" }
    package static var data: String { "data" }
    package static var publishTime: String { "publishTime" }
    package static var attributes: String { "attributes" }
    package static var subscription: String { "subscription" }
}

/// The short name the adapter's readers use for ``GooglePlayField``.
typealias Field = GooglePlayField
