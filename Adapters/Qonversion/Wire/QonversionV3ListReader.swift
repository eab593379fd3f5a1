import EntitlementKit

/// Reads `GET v3/users/{id}/entitlements`: `{"object": "list", "data": [ … ]}` (`object` optional).
///
/// Items carry `active` as a JSON boolean, `started`/`expires` in seconds and a nested `product`.
/// There is no user id, server time, grant type or transaction list in this shape.
enum QonversionV3ListReader {
    static func read(_ root: JSONNode) throws(DocumentError) -> QonversionWireDocument {
        try root.requireObject()
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
            activeFlag: try item.required("active").qonversionFlag(),
            productId: product.productId,
            renewState: product.renewState,
            source: try item.optionalEnumerationString("source"),
            currentPeriodType: product.currentPeriodType,
            startedDate: try item.optionalEpochSeconds("started"),
            expirationDate: try item.optionalEpochSeconds("expires")
        )
    }
}
