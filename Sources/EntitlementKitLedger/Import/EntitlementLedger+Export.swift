import EntitlementKit
import Foundation

// The ledger's customers by name, for `ledger export` and the replay's output: read-only, through the
// store's rows and the ledger's own `snapshot(for:at:)`.

/// Every customer of a ledger by name (``LedgerCustomerName``), and the customers whose own row could not
/// be read.
public struct LedgerCustomerRoll: Sendable {
    /// Sorted by name (bytes).
    public var customers: [LedgerCustomerName]
    /// One refusal (`damaged(row)`) per customer whose row is damaged: its ids are unknown, so it has no name.
    public var unreadable: [LedgerRefusal]
}

extension EntitlementLedger {
    /// Every customer's name and aliases, sorted by name; a customer whose row is damaged is listed in
    /// ``LedgerCustomerRoll/unreadable`` and the others are still named.
    public func namedCustomers() async throws(LedgerRefusal) -> LedgerCustomerRoll {
        let isAnonymous = configuration.isAnonymousAppUserId
        return try await store.transaction { transaction throws(LedgerRefusal) in
            let rows = LedgerRows(transaction: transaction)
            var customers: [LedgerCustomerName] = []
            var unreadable: [LedgerRefusal] = []
            for id in try await rows.customerIDs() {
                do throws(LedgerRefusal) {
                    if let customer = try await rows.customer(id) {
                        let planned = try await LedgerPurchaseLinks(rows: rows).plannedName(among: customer.appUserIds)
                        customers.append(
                            LedgerCustomerName(
                                appUserIds: customer.appUserIds, plannedName: planned, isAnonymous: isAnonymous))
                    }
                } catch {
                    unreadable.append(error)
                }
            }
            customers.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            return LedgerCustomerRoll(customers: customers, unreadable: unreadable)
        }
    }

    /// The snapshot of the customer named `customer` at `instant`: asked for by its name (its `appUserId`)
    /// and carrying its ``EntitlementSnapshot/aliases``.
    ///
    /// - Throws: what ``snapshot(for:at:)`` throws (a damaged row of this customer's: `damaged(row)`).
    public func snapshot(of customer: LedgerCustomerName, at instant: Date) async throws(LedgerRefusal)
        -> EntitlementSnapshot
    {
        var snapshot = try await snapshot(for: customer.name, at: instant)
        snapshot.aliases = customer.aliases
        return snapshot
    }
}
