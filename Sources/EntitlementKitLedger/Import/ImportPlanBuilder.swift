import EntitlementKit
import Foundation

/// Groups the rows of one or more exports into an import plan: one customer per vendor customer id, in the
/// order customers first appear; each purchase once, in the order it first appears.
///
/// A customer's ids are the vendor's customer id first (the plan's name for it), then its other ids sorted
/// by bytes. Memory grows with the plan (customers, their ids and purchases), not with the export's rows:
/// a subscription renewed a hundred times is one purchase.
public struct ImportPlanBuilder: Sendable {
    private struct Customer: Sendable {
        var name: String
        var aliases: [String] = []
        var purchases: [ImportPlanPurchase] = []
    }

    private var customers: [Customer] = []
    private var customerIndexes: [AppUserIdKey: Int] = [:]
    /// Every purchase planned → the first customer it was planned for.
    private var owners: [ImportPlanPurchase.Reference: Int] = [:]
    /// What was counted so far.
    public private(set) var statistics = ImportPlanStatistics()

    /// An empty plan.
    public init() {}

    /// Adds what one row says.
    public mutating func add(_ verdict: VendorExportRowVerdict) {
        statistics.rows += 1
        switch verdict {
        case .skipped(let reason):
            statistics.skipped[reason, default: 0] += 1
        case .purchase(let name, let aliases, let purchase):
            let key = AppUserIdKey(name)
            let index: Int
            if let known = customerIndexes[key] {
                index = known
            } else {
                index = customers.count
                customers.append(Customer(name: name))
                customerIndexes[key] = index
            }
            for alias in aliases where !customers[index].aliases.contains(where: { $0.utf8.elementsEqual(alias.utf8) })
            {
                customers[index].aliases.append(alias)
            }
            if let owner = owners[purchase.reference] {
                if owner != index, !customers[index].purchases.contains(where: { $0.reference == purchase.reference }) {
                    // The vendor lists the purchase under two customers (a transfer): planned for both, and
                    // `assign` gives it to the first it reaches; the count says so.
                    statistics.purchasesUnderSeveralCustomers += 1
                    customers[index].purchases.append(purchase)
                    statistics.purchases[purchase.reference.store, default: 0] += 1
                } else if let planned = customers[index].purchases.firstIndex(where: {
                    $0.reference == purchase.reference
                }), purchase.productId != nil {
                    // The product of the purchase's latest row read: a renewal may follow a product change.
                    customers[index].purchases[planned].productId = purchase.productId
                }
            } else {
                owners[purchase.reference] = index
                customers[index].purchases.append(purchase)
                statistics.purchases[purchase.reference.store, default: 0] += 1
            }
        }
    }

    /// Counts one malformed row (reported by the caller with its line).
    public mutating func addMalformedRow() {
        statistics.rows += 1
        statistics.malformedRows += 1
    }

    /// The plan: every customer with at least one purchase, in the order customers first appeared.
    public var plan: [ImportPlanCustomer] {
        customers.map { customer in
            let others = customer.aliases.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return ImportPlanCustomer(appUserIds: [customer.name] + others, purchases: customer.purchases)
        }
    }
}

/// What an import plan was made of: rows read, customers and purchases planned, rows skipped by reason.
public struct ImportPlanStatistics: Sendable, Hashable {
    /// Data rows read (the header not counted), malformed ones included.
    public var rows = 0
    /// Purchases planned, by the plan's store (`appStore`, `googlePlay`, `stripe`).
    public var purchases: [String: Int] = [:]
    /// Rows not planned, by reason (`sandbox`, `store amazon`, …).
    public var skipped: [String: Int] = [:]
    /// Rows reported as malformed and skipped.
    public var malformedRows = 0
    /// Purchases the export lists under more than one customer (planned for each).
    public var purchasesUnderSeveralCustomers = 0
}
