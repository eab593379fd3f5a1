/// The App Store's JSON member names, each spelled once: the adapter's readers, its format detection and its
/// on-device provider use them, and the test kit's simulated App Store writes them.
///
/// Computed literals rather than stored constants: a read costs what the literal did (no lazy global).
package enum AppStoreField {
    // The App Store Server API's responses (Get All Subscription Statuses, Get Transaction History) and the
    // adapter's combined object.
    package static var statuses: String { "statuses" }
    package static var history: String { "history" }
    package static var transactions: String { "transactions" }
    package static var data: String { "data" }
    package static var lastTransactions: String { "lastTransactions" }
    package static var status: String { "status" }
    package static var signedTransactions: String { "signedTransactions" }
    package static var signedTransactionInfo: String { "signedTransactionInfo" }
    package static var signedRenewalInfo: String { "signedRenewalInfo" }

    // A transaction's payload (JWSTransactionDecodedPayload).
    package static var transactionId: String { "transactionId" }
    package static var originalTransactionId: String { "originalTransactionId" }
    package static var bundleId: String { "bundleId" }
    package static var productId: String { "productId" }
    package static var type: String { "type" }
    package static var purchaseDate: String { "purchaseDate" }
    package static var originalPurchaseDate: String { "originalPurchaseDate" }
    package static var expiresDate: String { "expiresDate" }
    package static var quantity: String { "quantity" }
    package static var appAccountToken: String { "appAccountToken" }
    package static var inAppOwnershipType: String { "inAppOwnershipType" }
    package static var signedDate: String { "signedDate" }
    package static var environment: String { "environment" }
    package static var storefront: String { "storefront" }
    package static var transactionReason: String { "transactionReason" }
    package static var revocationDate: String { "revocationDate" }
    package static var revocationReason: String { "revocationReason" }
    package static var revocationType: String { "revocationType" }
    package static var isUpgraded: String { "isUpgraded" }
    package static var offerType: String { "offerType" }
    package static var offerIdentifier: String { "offerIdentifier" }
    package static var offerDiscountType: String { "offerDiscountType" }

    // A renewal info's payload (JWSRenewalInfoDecodedPayload).
    package static var autoRenewProductId: String { "autoRenewProductId" }
    package static var autoRenewStatus: String { "autoRenewStatus" }
    package static var expirationIntent: String { "expirationIntent" }
    package static var isInBillingRetryPeriod: String { "isInBillingRetryPeriod" }
    package static var gracePeriodExpiresDate: String { "gracePeriodExpiresDate" }
    package static var recentSubscriptionStartDate: String { "recentSubscriptionStartDate" }
    package static var renewalDate: String { "renewalDate" }

    // A server notification (App Store Server Notifications V2): the signed body and its payload.
    package static var signedPayload: String { "signedPayload" }
    package static var notificationType: String { "notificationType" }
    package static var notificationUUID: String { "notificationUUID" }
    package static var version: String { "version" }

    // The payload's other parts naming the app: a summary (for a renewal extension) and an app's data (for a
    // test or consumption notification), and an external purchase's token.
    package static var summary: String { "summary" }
    package static var appData: String { "appData" }
    package static var externalPurchaseToken: String { "externalPurchaseToken" }
    package static var externalPurchaseId: String { "externalPurchaseId" }
}

/// The short name the adapter's readers use for ``AppStoreField``.
typealias Field = AppStoreField
