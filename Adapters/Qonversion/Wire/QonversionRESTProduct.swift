import EntitlementKit

/// The nested `product` object of a v3 or v4 list item: the same keys in both versions.
///
/// `product` is absent on manual grants, and `product.subscription` exists only for subscription
/// products, so every part is optional.
struct QonversionRESTProduct: Sendable, Hashable {
    var productId: String?
    var renewState: QonversionRenewStateCode?
    var currentPeriodType: String?

    /// Reads `item.product`; an absent product reads as all `nil`.
    init(item: JSONNode) throws(DocumentError) {
        guard let product = try item.optionalObject(Field.product) else { return }
        productId = try product.optionalIdentifier(Field.productId)
        guard let subscription = try product.optionalObject(Field.subscription) else { return }
        renewState = try subscription.optional(Field.renewState).map { $0.qonversionRenewState() }
        currentPeriodType = try subscription.optionalEnumerationString(Field.currentPeriodType)
    }
}
