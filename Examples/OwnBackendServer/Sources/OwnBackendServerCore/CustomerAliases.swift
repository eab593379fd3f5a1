import EntitlementKitLedger
import Foundation

/// The app user ids of the customer an id belongs to, read through the store with the ledger's public
/// row types (`appUserIds` → `LedgerCustomerID`, `customers` → `LedgerCustomer`): the login route needs
/// it to tell an anonymous id no identified customer holds from one that was logged in already.
struct CustomerAliases: Sendable {
    let store: any LedgerStore

    /// The ids of `appUserId`'s customer, the original first; empty when no customer has it.
    func ids(of appUserId: String) async throws(LedgerRefusal) -> [String] {
        try await store.transaction { transaction throws(LedgerRefusal) in
            guard let number = try await transaction.value(in: .appUserIds, key: appUserId) else { return [] }
            do {
                let id = try JSONDecoder().decode(LedgerCustomerID.self, from: number)
                guard let row = try await transaction.value(in: .customers, key: String(id.rawValue)) else { return [] }
                return try JSONDecoder().decode(LedgerCustomer.self, from: row).appUserIds
            } catch let refusal as LedgerRefusal {
                throw refusal
            } catch {
                throw LedgerRefusal(.storage, "a customer row does not read: \(error)")
            }
        }
    }
}
