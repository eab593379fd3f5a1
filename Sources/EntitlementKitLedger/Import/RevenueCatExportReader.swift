import EntitlementKit
import Foundation

/// RevenueCat's scheduled data export of transactions (CSV, one row per transaction and renewal) read into
/// import plan rows.
///
/// Columns used: `rc_original_app_user_id` (the customer; required), `rc_last_seen_app_user_id_alias` (an
/// alias when it differs), `store`, `product_identifier`, `store_transaction_id`,
/// `original_store_transaction_id` (the purchase; `store_transaction_id` when empty) and `is_sandbox`
/// (`true`/`false`, any case, or `1`/`0`). Stores: `app_store` and `mac_app_store` name an App Store
/// original transaction id; `play_store` a Play order id, its `..N` renewal suffix removed so a
/// subscription's renewals are one purchase; `stripe` a `sub_` subscription or a `cs_` Checkout Session.
/// Other stores are skipped (`store amazon`), and so are Stripe ids of another kind (`stripe id other than
/// sub_ or cs_`) and rows of an environment not asked for (`sandbox`, `production`).
public struct RevenueCatExportReader: VendorExportReader {
    /// `revenuecat-export`, the name `ledger import-plan --from` takes.
    public static let format = "revenuecat-export"

    /// The environments whose rows are taken: production only by default, as the ledger's.
    public var environments: Set<Environment>

    /// A reader taking rows of `environments`.
    public init(environments: Set<Environment> = [.production]) {
        self.environments = environments
    }

    public var columns: [String] {
        [
            "rc_original_app_user_id", "rc_last_seen_app_user_id_alias", "store", "product_identifier",
            "store_transaction_id", "original_store_transaction_id", "is_sandbox",
        ]
    }

    public func read(_ row: VendorExportRow) throws(VendorExportRowError) -> VendorExportRowVerdict {
        let customer = row["rc_original_app_user_id"]
        try Self.checkAppUserId(customer, column: "rc_original_app_user_id")
        let environment = try Self.environment(row["is_sandbox"])
        guard environments.contains(environment) else { return .skipped(reason: environment.rawValue) }
        let store = row["store"]
        var idColumn = "original_store_transaction_id"
        var id = row[idColumn]
        if id.isEmpty {
            idColumn = "store_transaction_id"
            id = row[idColumn]
        }
        let reference: ImportPlanPurchase.Reference
        switch store {
        case "app_store", "mac_app_store":
            reference = try Self.reference(store: "appStore", key: "originalTransactionId", id: id, column: idColumn)
        case "play_store":
            guard let orderId = ImportPlanPurchase.playOrderId(id) else {
                throw VendorExportRowError(
                    column: idColumn, value: id,
                    reason: "is not a Play order id (GPA. and dash-grouped digits, then ..N on a renewal)")
            }
            reference = .googlePlayOrder(orderId: orderId)
        case "stripe":
            guard id.hasPrefix("sub_") || id.hasPrefix("cs_") else {
                if id.isEmpty { throw VendorExportRowError(column: idColumn, value: id, reason: "is empty") }
                return .skipped(reason: "stripe id other than sub_ or cs_")
            }
            let key = id.hasPrefix("sub_") ? "subscription" : "checkoutSession"
            reference = try Self.reference(store: "stripe", key: key, id: id, column: idColumn)
        case "":
            throw VendorExportRowError(column: "store", value: store, reason: "is empty")
        default:
            return .skipped(reason: "store \(store)")
        }
        var aliases: [String] = []
        let alias = row["rc_last_seen_app_user_id_alias"]
        if !alias.isEmpty, !alias.utf8.elementsEqual(customer.utf8) {
            try Self.checkAppUserId(alias, column: "rc_last_seen_app_user_id_alias")
            aliases.append(alias)
        }
        return .purchase(
            customer: customer, aliases: aliases,
            ImportPlanPurchase(reference, productId: row["product_identifier"]))
    }

    private static func reference(store: String, key: String, id: String, column: String)
        throws(VendorExportRowError) -> ImportPlanPurchase.Reference
    {
        switch ImportPlanPurchase.Reference.reading(store: store, key: key, id: id) {
        case .success(let reference): return reference
        case .failure(let error): throw VendorExportRowError(column: column, value: id, reason: error.reason)
        }
    }

    private static func environment(_ text: String) throws(VendorExportRowError) -> Environment {
        switch text.lowercased() {
        case "true", "1": return .sandbox
        case "false", "0": return .production
        default:
            throw VendorExportRowError(column: "is_sandbox", value: text, reason: "is not true or false")
        }
    }

    private static func checkAppUserId(_ id: String, column: String) throws(VendorExportRowError) {
        if id.isEmpty { throw VendorExportRowError(column: column, value: id, reason: "is empty") }
        if let refusal = AppUserIdCheck(id).backendRefusal {
            throw VendorExportRowError(column: column, value: id, reason: "\(refusal)")
        }
    }
}
