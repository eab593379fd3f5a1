import EntitlementKit
import Foundation

/// One line of an import plan: a customer a vendor holds — its app user ids and the store purchases that
/// are its.
///
/// JSON Lines, one customer per line: `{"appUserIds": ["u123", "$RCAnonymousID:…"], "purchases": [{"store":
/// "appStore", "originalTransactionId": "…"}, …]}` (``ImportPlanPurchase``). The first id is the customer's
/// name in the ledger's exports.
public struct ImportPlanCustomer: Sendable, Hashable {
    /// The customer's app user ids, its name first; each once.
    public var appUserIds: [String]
    /// Its purchases, each once.
    public var purchases: [ImportPlanPurchase]

    /// A customer holding `appUserIds` (its name first) and owning `purchases`.
    public init(appUserIds: [String], purchases: [ImportPlanPurchase]) {
        self.appUserIds = appUserIds
        self.purchases = purchases
    }

    /// The plan line's JSON value.
    public var jsonValue: JSONValue {
        .object([
            "appUserIds": .array(appUserIds.map(JSONValue.string)),
            "purchases": .array(purchases.map(\.jsonValue)),
        ])
    }

    /// The plan line: one line of compact JSON, without its line break.
    public var jsonLine: String { jsonValue.compactText }

    /// Reads one plan line strictly, refusing with a located ``DocumentError``: members other than
    /// `appUserIds` and `purchases` (both required); no id, an id twice, or an id the ledger refuses
    /// (``AppUserIdCheck``); a purchase ``ImportPlanPurchase/init(json:)`` refuses, or one listed twice.
    public init(json node: JSONNode) throws(DocumentError) {
        for key in try node.members().keys.sorted() where key != "appUserIds" && key != "purchases" {
            throw DocumentError(
                kind: .inconsistent, path: node.path.appending(key),
                reason: "is not a member of an import plan line (appUserIds, purchases)")
        }
        let idsNode = try node.required("appUserIds")
        var ids: [String] = []
        for element in try idsNode.elements() {
            let id = try element.string()
            if let refusal = AppUserIdCheck(id).backendRefusal { throw element.invalid("\(refusal)") }
            if ids.contains(where: { $0.utf8.elementsEqual(id.utf8) }) {
                throw element.invalid("is listed twice")
            }
            ids.append(id)
        }
        guard !ids.isEmpty else { throw idsNode.invalid("holds no app user id") }
        var purchases: [ImportPlanPurchase] = []
        for element in try node.required("purchases").elements() {
            let purchase = try ImportPlanPurchase(json: element)
            if purchases.contains(where: { $0.reference == purchase.reference }) {
                throw element.invalid("names a purchase listed before")
            }
            purchases.append(purchase)
        }
        self.init(appUserIds: ids, purchases: purchases)
    }

    /// Reads one plan line's text; the error's ``DocumentError/line`` is `line`.
    public init(jsonLine data: Data, line: Int) throws(DocumentError) {
        do {
            try self.init(json: JSONNode(parsing: data))
        } catch {
            var located = error
            located.line = line
            throw located
        }
    }
}
