import EntitlementKit

/// The request that hands Adapty a receipt or purchase token, chosen by store as Adapty's SDKs choose
/// it: App Store original transaction ids (all digits) through the StoreKit 2 validation, other App
/// Store tokens (a base64 receipt) through the StoreKit 1 receipt validation, Play purchase tokens
/// through the Play restore or validate call. Bodies are JSON:API envelopes, as the SDKs send them.
struct AdaptyStoreRequest {
    var path: String
    var operation: String
    var body: JSONValue

    /// A restore (`isRestore`) or a purchase just made (`productId`), for `profileId`; `nil` for a store
    /// Adapty's SDK backend does not validate.
    init?(_ receipt: StoreReceipt, productId: String?, profileId: String) {
        var attributes: [String: JSONValue] = [Field.profileId: .string(profileId)]
        let type: String
        let isAppleStore = receipt.store == .appStore || receipt.store == .macAppStore
        if isAppleStore, Self.isOriginalTransactionId(receipt.token) {
            path = "api/v1/sdk/purchase/app-store/original-transaction-id/validate/"
            type = "adapty_purchase_app_store_original_transaction_id_validation_result"
            attributes[Field.originalTransactionId] = .string(receipt.token)
            attributes[Field.requestSource] = .string(productId == nil ? "restore" : "purchasing")
        } else if isAppleStore {
            path = "api/v1/sdk/in-apps/apple/receipt/validate/"
            type = "adapty_inapps_apple_receipt_validation_result"
            attributes[Field.receiptEncoded] = .string(receipt.token)
        } else if receipt.store == .playStore {
            type = "google_receipt_validation_result"
            if let productId {
                path = "api/v1/sdk/purchase/play-store/token/v2/validate/"
                attributes[Field.productId] = .string(productId)
                attributes[Field.purchaseToken] = .string(receipt.token)
            } else {
                path = "api/v1/sdk/purchase/play-store/token/v2/restore/"
                attributes[Field.items] = .array([.object([Field.purchaseToken: .string(receipt.token)])])
            }
        } else {
            return nil
        }
        operation = "POST /" + path
        body = .object([Field.data: .object([Field.type: .string(type), Field.attributes: .object(attributes)])])
    }

    /// Whether Adapty's SDK backend validates `store`'s purchases (App Store, Mac App Store, Play).
    static func isValidated(_ store: Store) -> Bool {
        store == .appStore || store == .macAppStore || store == .playStore
    }

    /// An App Store original transaction id: 1 to 20 ASCII digits (a receipt is base64, never all digits).
    static func isOriginalTransactionId(_ token: String) -> Bool {
        (1...20).contains(token.utf8.count) && token.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
