import EntitlementKit
import Foundation

// Reading the two payloads through `JSONNode`. Apple's library leaves every key optional and fails on a
// wrong JSON type; so does this reader, for every key it reads. What is *required* is decided here, by
// what access depends on: a transaction that can unlock an entitlement must say which chain, product and
// purchase it is, and an auto-renewable one when it ends (without `expiresDate` it would read as lifetime
// access).

extension AppStoreTransaction {
    /// Reads the transaction payload `node` (already opened by the item reader).
    init(reading node: JSONNode, order: Int, isVerified: Bool) throws(DocumentError) {
        path = node.path
        self.order = order
        self.isVerified = isVerified
        transactionId = try node.optional(Field.transactionId)?.identifier()
        originalTransactionId = try node.optional(Field.originalTransactionId)?.identifier()
        bundleId = try node.optional(Field.bundleId)?.string()
        productId = try node.optional(Field.productId)?.identifier()
        type = AppStoreProductType(raw: try node.optional(Field.type)?.string())
        purchaseDate = try node.optionalAppStoreDate(Field.purchaseDate)
        originalPurchaseDate = try node.optionalAppStoreDate(Field.originalPurchaseDate)
        expiresDate = try node.optionalAppStoreDate(Field.expiresDate)
        appAccountToken = try node.optional(Field.appAccountToken)?.identifier()
        inAppOwnershipType = try node.optional(Field.inAppOwnershipType)?.string()
        signedDate = try node.optionalAppStoreDate(Field.signedDate)
        revocationDate = try node.optionalAppStoreDate(Field.revocationDate)
        revocationReason = try node.optional(Field.revocationReason)?.integer()
        revocationType = try node.optional(Field.revocationType)?.string()
        isUpgraded = try node.optional(Field.isUpgraded)?.bool() ?? false
        offerType = try node.optional(Field.offerType)?.integer()
        offerIdentifier = try node.optional(Field.offerIdentifier)?.identifier()
        offerDiscountType = try node.optional(Field.offerDiscountType)?.string()
        environment = try node.optional(Field.environment)?.string()
        transactionReason = try node.optional(Field.transactionReason)?.string()

        guard type.canGrant else { return }
        var required = [
            (Field.transactionId, transactionId != nil), (Field.originalTransactionId, originalTransactionId != nil),
            (Field.productId, productId != nil), (Field.purchaseDate, purchaseDate != nil),
        ]
        if type == .autoRenewable { required.append((Field.expiresDate, expiresDate != nil)) }
        for (key, isPresent) in required where !isPresent {
            throw DocumentError(
                kind: .missingField, path: node.path.appending(key),
                reason: "is required for a transaction of type \(JSONValue.string(type.rawName).compactText)")
        }
    }
}

extension AppStoreProductType {
    /// Apple's spelling, for messages.
    var rawName: String {
        switch self {
        case .autoRenewable: "Auto-Renewable Subscription"
        case .nonRenewing: "Non-Renewing Subscription"
        case .nonConsumable: "Non-Consumable"
        case .consumable: "Consumable"
        case .unknown: "unknown"
        }
    }
}

extension AppStoreRenewalInfo {
    /// Reads the renewal-info payload `node`.
    init(reading node: JSONNode, isVerified: Bool) throws(DocumentError) {
        path = node.path
        self.isVerified = isVerified
        originalTransactionId = try node.optional(Field.originalTransactionId)?.identifier()
        autoRenewStatus = try node.optional(Field.autoRenewStatus)?.integer()
        expirationIntent = try node.optional(Field.expirationIntent)?.integer()
        isInBillingRetryPeriod = try node.optional(Field.isInBillingRetryPeriod)?.bool()
        gracePeriodExpiresDate = try node.optionalAppStoreDate(Field.gracePeriodExpiresDate)
        signedDate = try node.optionalAppStoreDate(Field.signedDate)
    }
}
