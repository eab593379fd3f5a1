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
        transactionId = try node.optional("transactionId")?.identifier()
        originalTransactionId = try node.optional("originalTransactionId")?.identifier()
        bundleId = try node.optional("bundleId")?.string()
        productId = try node.optional("productId")?.identifier()
        type = AppStoreProductType(raw: try node.optional("type")?.string())
        purchaseDate = try node.optionalAppStoreDate("purchaseDate")
        originalPurchaseDate = try node.optionalAppStoreDate("originalPurchaseDate")
        expiresDate = try node.optionalAppStoreDate("expiresDate")
        appAccountToken = try node.optional("appAccountToken")?.identifier()
        inAppOwnershipType = try node.optional("inAppOwnershipType")?.string()
        signedDate = try node.optionalAppStoreDate("signedDate")
        revocationDate = try node.optionalAppStoreDate("revocationDate")
        revocationReason = try node.optional("revocationReason")?.integer()
        revocationType = try node.optional("revocationType")?.string()
        isUpgraded = try node.optional("isUpgraded")?.bool() ?? false
        offerType = try node.optional("offerType")?.integer()
        offerIdentifier = try node.optional("offerIdentifier")?.identifier()
        offerDiscountType = try node.optional("offerDiscountType")?.string()
        environment = try node.optional("environment")?.string()
        transactionReason = try node.optional("transactionReason")?.string()

        guard type.canGrant else { return }
        var required = ["transactionId", "originalTransactionId", "productId", "purchaseDate"]
        if type == .autoRenewable { required.append("expiresDate") }
        let present: [String: Bool] = [
            "transactionId": transactionId != nil, "originalTransactionId": originalTransactionId != nil,
            "productId": productId != nil, "purchaseDate": purchaseDate != nil, "expiresDate": expiresDate != nil,
        ]
        for key in required where present[key] != true {
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
        originalTransactionId = try node.optional("originalTransactionId")?.identifier()
        autoRenewStatus = try node.optional("autoRenewStatus")?.integer()
        expirationIntent = try node.optional("expirationIntent")?.integer()
        isInBillingRetryPeriod = try node.optional("isInBillingRetryPeriod")?.bool()
        gracePeriodExpiresDate = try node.optionalAppStoreDate("gracePeriodExpiresDate")
        signedDate = try node.optionalAppStoreDate("signedDate")
    }
}
