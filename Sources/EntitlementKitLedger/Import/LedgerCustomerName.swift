import EntitlementKit
import Foundation

/// How a ledger's export and replay name a customer: one of its app user ids as its name, the others as
/// its aliases (sorted by their UTF-8 bytes).
///
/// The name is the import plan's first id for the customer when the ledger knows it; else the customer's
/// first identified id by bytes (an id the app's sign-in gave, the one a vendor's export most likely uses
/// too); else — a customer holding anonymous ids only — its first id (the original).
public struct LedgerCustomerName: Sendable, Hashable {
    /// The id the customer is asked for by and printed under.
    public var name: String
    /// Its other ids, sorted by bytes.
    public var aliases: [String]

    /// The name and aliases of a customer holding `appUserIds` (the original first).
    ///
    /// - Parameters:
    ///   - plannedName: the first id of the customer's import plan line, when one assigned purchases to it.
    ///   - isAnonymous: whether an id is anonymous (the ledger's ``LedgerConfiguration/isAnonymousAppUserId``).
    public init(appUserIds: [String], plannedName: String? = nil, isAnonymous: (String) -> Bool) {
        let byBytes: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let held = { (id: String) in appUserIds.contains { $0.utf8.elementsEqual(id.utf8) } }
        let name =
            plannedName.flatMap { held($0) ? $0 : nil }
            ?? appUserIds.filter { !isAnonymous($0) }.min(by: byBytes)
            ?? appUserIds.first ?? ""
        self.name = name
        aliases = appUserIds.filter { !$0.utf8.elementsEqual(name.utf8) }.sorted(by: byBytes)
    }
}
