import EntitlementKit
import Foundation

/// Reads Qonversion's REST entitlement lists. The two versions carry the same facts and differ only in
/// key names and how dates are written:
///
/// - `GET v3/users/{id}/entitlements`: `{"object": "list", "data": [ … ]}` (`object` optional); items have
///   `active` (a JSON boolean) and `started`/`expires` in seconds since the epoch.
/// - `GET v4/users/{id}/entitlements`: `{"object": "list", "url": …, "data": [ … ], "has_more": false}`;
///   items (`object: "user_entitlement"`) have `is_active` and ISO 8601 `started_at`/`expires_at`. The
///   endpoint documents `has_more` as always false; a `true` would mean a partial list, which could omit an
///   entitlement the customer holds, so it is refused.
///
/// Both nest the product under `product`. Neither has a user id, server time, grant type or transactions.
struct QonversionRESTListReader {
    /// How a list writes its dates.
    enum DateEncoding {
        case epochSeconds
        case rfc3339
    }

    let activeKey: String
    let startedKey: String
    let expiresKey: String
    let dateEncoding: DateEncoding
    let refusesPartialLists: Bool

    static let v3 = QonversionRESTListReader(
        activeKey: Field.active, startedKey: Field.started, expiresKey: Field.expires, dateEncoding: .epochSeconds,
        refusesPartialLists: false)
    static let v4 = QonversionRESTListReader(
        activeKey: Field.isActive, startedKey: Field.startedAt, expiresKey: Field.expiresAt, dateEncoding: .rfc3339,
        refusesPartialLists: true)

    func read(_ root: JSONNode) throws(DocumentError) -> QonversionWireDocument {
        try root.requireObject()
        if refusesPartialLists, let hasMore = try root.optional(Field.hasMore), try hasMore.bool() {
            throw hasMore.invalid(
                "means this is one page of a longer list; a partial list cannot say what the customer holds")
        }
        var entitlements: [QonversionWireEntitlement] = []
        for item in try root.required(Field.data).elements() {
            entitlements.append(try entitlement(item))
        }
        return QonversionWireDocument(entitlements: entitlements)
    }

    private func entitlement(_ item: JSONNode) throws(DocumentError) -> QonversionWireEntitlement {
        try item.requireObject()
        let (id, idNode) = try item.qonversionEntitlementId()
        let product = try QonversionRESTProduct(item: item)
        return QonversionWireEntitlement(
            id: id,
            idNode: idNode,
            activeFlag: try item.required(activeKey).qonversionFlag(),
            productId: product.productId,
            renewState: product.renewState,
            source: try item.optionalEnumerationString(Field.source),
            currentPeriodType: product.currentPeriodType,
            startedDate: try date(item, startedKey),
            expirationDate: try date(item, expiresKey)
        )
    }

    private func date(_ item: JSONNode, _ key: String) throws(DocumentError) -> Date? {
        switch dateEncoding {
        case .epochSeconds: try item.optionalEpochSeconds(key)
        case .rfc3339: try item.optionalDate(key)
        }
    }
}
