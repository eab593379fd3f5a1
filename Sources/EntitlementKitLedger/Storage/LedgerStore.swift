import Foundation

/// The tables of a ledger's state. Each row is a key and the ledger's own bytes for it.
public enum LedgerTable: String, Sendable, Hashable, CaseIterable, Codable {
    /// Purchases, by `source:key`: the owner, the statements held and the account links their records
    /// carry (the thread's head; each statement's record is a row of ``statements``).
    case threads
    /// The newest record of each statement of a purchase, by `source:length:key statement`.
    case statements
    /// Other keys of a purchase (Play's chained tokens), by `source:key`: the thread's key.
    case threadAliases
    /// Customers, by number: app user ids and owned threads.
    case customers
    /// App user ids, by the id: the customer's number.
    case appUserIds
    /// Registered account ids (`link(_:to:)`), by `kind:value`: the app user id.
    case accountLinks
    /// Unlinked threads waiting for an account id, by `kind:value`: the threads.
    case unlinkedThreads
    /// Seen notification ids, by `source:id`: when first received.
    case notifications
    /// Counters (the next customer number).
    case counters
    /// What an import asserted (`assign`): purchase-id links, by `purchase:source:key`, the app user id
    /// the purchase belongs to; planned names, by `name:id`; backfilled plan lines, by `done:digest`.
    case purchaseLinks
}

/// Where a ledger keeps its state: threads, customers (alias sets), links and seen notification ids.
///
/// Every input is applied in one ``transaction(_:)``: the store runs transactions one at a time (a
/// lock, or its database's serialisable transactions) and keeps all of a transaction's writes or none
/// — a failed body, a crash or a killed process leaves the state as it was before the input.
///
/// ``InMemoryLedgerStore`` and ``DirectoryLedgerStore`` ship with the package; a server that outgrows
/// one machine implements this protocol on its database (one table of `(table, key, value)` rows).
public protocol LedgerStore: Sendable {
    /// Runs `body` as one transaction and keeps its writes when it returns; none when it throws.
    func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result
    ) async throws(LedgerRefusal) -> Result
}

/// The reads and writes of one transaction; reads see the transaction's own writes.
public protocol LedgerStoreTransaction: Sendable {
    /// The value of `key` in `table`, or `nil`.
    func value(in table: LedgerTable, key: String) async throws(LedgerRefusal) -> Data?
    /// Sets (or, with `nil`, removes) the value of `key` in `table`.
    func setValue(_ value: Data?, in table: LedgerTable, key: String) async throws(LedgerRefusal)
    /// Every key of `table`.
    func keys(in table: LedgerTable) async throws(LedgerRefusal) -> [String]
}
