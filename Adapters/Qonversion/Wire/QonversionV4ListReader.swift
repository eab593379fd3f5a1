import EntitlementKit

/// Reads `GET v4/users/{id}/entitlements`:
/// `{"object": "list", "url": …, "data": [ … ], "has_more": false}`.
///
/// Items (`object: "user_entitlement"`) carry `is_active` and ISO 8601 `started_at`/`expires_at`.
/// The endpoint documents `has_more` as always false; a `true` would mean a partial list, which could
/// omit an entitlement the customer holds, so it is refused.
enum QonversionV4ListReader {
    static func read(_ root: JSONNode) throws(DocumentError) -> QonversionWireDocument {
        try root.requireObject()
        if let hasMore = try root.optional("has_more"), try hasMore.bool() {
            throw hasMore.invalid("means this is one page of a longer list; a partial list cannot say what the customer holds")
        }
        var entitlements: [QonversionWireEntitlement] = []
        for item in try root.required("data").elements() {
            entitlements.append(try entitlement(item))
        }
        return QonversionWireDocument(entitlements: entitlements)
    }

    static func entitlement(_ item: JSONNode) throws(DocumentError) -> QonversionWireEntitlement {
        try item.requireObject()
        let (id, idPath) = try item.qonversionEntitlementId()
        let product = try QonversionRESTProduct(item: item)
        return QonversionWireEntitlement(
            id: id,
            idPath: idPath,
            activeFlag: try item.required("is_active").qonversionFlag(),
            productId: product.productId,
            renewState: product.renewState,
            source: try item.optionalEnumerationString("source"),
            currentPeriodType: product.currentPeriodType,
            startedDate: try item.optionalISODate("started_at"),
            expirationDate: try item.optionalISODate("expires_at")
        )
    }
}
