import EntitlementKit

/// Which of the three Google Play documents a JSON value is (recognised in `Detection/`).
enum GooglePlayDocumentForm: Sendable, Hashable {
    /// A `purchases.subscriptionsv2.get` response.
    case subscription
    /// A `purchases.products.get` response.
    case product
    /// `{"subscriptions": [{"purchaseToken", "purchase"}], "products": [{"productId", "purchaseToken", "purchase"}]}`.
    case listing

    static let subscriptionKind = "androidpublisher#subscriptionPurchaseV2"
    static let productKind = "androidpublisher#productPurchase"

    /// The form `document` is read as when the caller named this adapter: looser than ``recognized(_:)``,
    /// so that a damaged document reaches its reader and fails there with a located error, and documents
    /// Google's API returns but this adapter does not read are refused by name.
    static func assumed(_ document: JSONNode) throws(DocumentError) -> GooglePlayDocumentForm {
        guard document.kind == .object else { throw document.typeMismatch("an object") }
        if let error = googleErrorBody(document) { throw error }
        if let kindNode = document.member(Field.kind), !kindNode.isNull {
            let kind = try kindNode.string()
            switch kind {
            case subscriptionKind: return .subscription
            case productKind: return .product
            case "androidpublisher#subscriptionPurchase":
                throw unsupported(kindNode, "is a v1 SubscriptionPurchase; read purchases.subscriptionsv2.get instead")
            case "androidpublisher#productPurchaseV2":
                throw unsupported(
                    kindNode, "is a ProductPurchaseV2, which this version does not read; use purchases.products.get")
            default:
                throw unsupported(kindNode, "is not a purchase resource this adapter reads")
            }
        }
        if document.has(Field.lineItems) || document.has(Field.subscriptionState) { return .subscription }
        if document.has(Field.expiryTimeMillis) || document.has(Field.paymentState) {
            throw DocumentError(
                kind: .unrecognizedFormat, path: document.path,
                reason: "is a v1 SubscriptionPurchase (expiryTimeMillis); read purchases.subscriptionsv2.get instead")
        }
        if document.has(Field.purchaseTimeMillis) || document.has(Field.purchaseState) { return .product }
        if document.has(Field.consumptionState) { return .product }
        if document.has(Field.subscriptions) || document.has(Field.products) { return .listing }
        throw DocumentError(
            kind: .unrecognizedFormat, path: document.path,
            reason:
                "is none of Google Play's SubscriptionPurchaseV2, ProductPurchase or the per-customer listing {\"subscriptions\": […], \"products\": […]}"
        )
    }

    /// Google's API answers a failed request (a token expired too long ago, a wrong package) with
    /// `{"error": {"code": 410, "message": "…", "status": "…"}}`; mapped, it would read as "no purchases".
    static func googleErrorBody(_ document: JSONNode) -> DocumentError? {
        // Only the `error` member is made into a value: a purchase document is not copied to be told apart.
        guard let errorNode = document.member(Field.error), errorNode.kind == .object,
            case .object(let error) = errorNode.value
        else { return nil }
        var detail = ""
        if case .integer(let code)? = error[Field.code] { detail += "code \(code)" }
        if case .string(let message)? = error[Field.message] { detail += (detail.isEmpty ? "" : ": ") + message }
        return DocumentError(
            kind: .vendorError, path: document.path.appending(Field.error), offending: .object(error),
            reason: "is a Google Play Developer API error" + (detail.isEmpty ? "" : " (\(detail))"))
    }

    private static func unsupported(_ node: JSONNode, _ reason: String) -> DocumentError {
        DocumentError(kind: .unrecognizedFormat, path: node.path, offending: node.value, reason: reason)
    }
}
