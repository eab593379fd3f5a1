import Foundation

/// Which products unlock which entitlements, for backends that only know products: the stores.
///
/// A vendor (RevenueCat, Qonversion, Adapty) answers with entitlements its dashboard defined. The App
/// Store and Google Play answer with products and transactions only, so their adapters take a catalog:
/// product id → entitlement ids, and for a non-renewing subscription (bought once, valid for a period) its
/// duration. Its JSON form, for the CLI's `--catalog FILE`:
///
/// ```json
/// {"products": {
///   "com.acme.pro.monthly": {"entitlements": ["pro"]},
///   "com.acme.season": {"entitlements": ["pro"], "duration": "P3M"}
/// }}
/// ```
///
/// Without a catalog (``identity``) every product is its own entitlement, named by the product id. With
/// one, a product it does not name unlocks nothing (its transactions are still listed in the snapshot).
/// The catalog is read strictly: a misspelt key or an empty entitlement list would silently lock
/// customers out, so each is a located ``DocumentError``.
public struct EntitlementCatalog: Sendable, Hashable {
    /// What one product unlocks.
    public struct Product: Sendable, Hashable {
        /// The entitlements the product unlocks (at least one, no duplicates, in the catalog's order).
        public var entitlementIds: [String]
        /// For a non-renewing subscription: how long one purchase lasts (`P3M`); `nil` otherwise.
        public var duration: ISODuration?

        /// A product that unlocks `entitlementIds`, for `duration` when it is a non-renewing subscription.
        public init(entitlementIds: [String], duration: ISODuration? = nil) {
            self.entitlementIds = entitlementIds
            self.duration = duration
        }
    }

    /// The named products; empty (with ``isIdentity``) for the catalog that maps each product to itself.
    public let products: [String: Product]
    /// Whether this is ``identity``: every product its own entitlement.
    public let isIdentity: Bool

    /// A catalog of `products`; a product it does not name unlocks nothing.
    public init(products: [String: Product]) {
        self.products = products
        self.isIdentity = false
    }

    private init(identity: Void) {
        products = [:]
        isIdentity = true
    }

    /// No catalog: every product unlocks one entitlement named like the product.
    public static let identity = EntitlementCatalog(identity: ())

    /// The entitlements `productId` unlocks: the catalog's list, `[productId]` for ``identity``, empty for
    /// a product the catalog does not name.
    public func entitlementIds(forProduct productId: String) -> [String] {
        if isIdentity { return [productId] }
        return products[productId]?.entitlementIds ?? []
    }

    /// How long one purchase of the non-renewing subscription `productId` lasts, when the catalog says.
    public func duration(forProduct productId: String) -> ISODuration? {
        products[productId]?.duration
    }

    /// Reads the JSON form (`{"products": {"id": {"entitlements": ["pro"], "duration": "P3M"}}}`).
    ///
    /// Refused with a located ``DocumentError``: a key other than `products` (top level) or `entitlements`
    /// / `duration` (per product), an empty product id, an empty or repeated entitlement id, an empty
    /// entitlement list, a duration that is not a positive ISO 8601 period, duplicate keys, wrong types.
    public init(json root: JSONNode) throws(DocumentError) {
        try Self.refuseUnknownKeys(of: root, allowed: ["products"])
        var products: [String: Product] = [:]
        let named = try root.required("products").members()
        // In id order, so the first of several mistakes is always the one reported.
        for (productId, node) in named.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            guard !productId.isEmpty else { throw node.invalid("is a product with an empty id") }
            try Self.refuseUnknownKeys(of: node, allowed: ["entitlements", "duration"])
            let list = try node.required("entitlements")
            var ids: [String] = []
            for element in try list.elements() {
                let id = try element.string()
                guard !id.isEmpty else { throw element.invalid("is an empty entitlement id") }
                guard !ids.contains(id) else { throw element.invalid("is listed twice for this product") }
                ids.append(id)
            }
            guard !ids.isEmpty else {
                throw DocumentError(
                    kind: .invalidValue, path: list.path, value: "[]",
                    reason: "unlocks nothing; leave the product out instead")
            }
            var duration: ISODuration?
            if let durationNode = try node.optional("duration") {
                guard let parsed = ISODuration(try durationNode.string()), !parsed.isZero, !parsed.isNegative else {
                    throw durationNode.invalid("is not a positive ISO 8601 period, such as P1M or P1Y")
                }
                duration = parsed
            }
            products[productId] = Product(entitlementIds: ids, duration: duration)
        }
        self.init(products: products)
    }

    /// Reads the JSON form from bytes.
    public init(json data: Data) throws(DocumentError) {
        try self.init(json: JSONNode(parsing: data))
    }

    private static func refuseUnknownKeys(of node: JSONNode, allowed: Set<String>) throws(DocumentError) {
        let unknown = try node.members().filter { !allowed.contains($0.key) }
        if let member = unknown.min(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })?.value {
            throw DocumentError(
                kind: .invalidValue, path: member.path, offending: member.value,
                reason: "is not a catalog key (\(allowed.sorted().joined(separator: ", ")))")
        }
    }
}
