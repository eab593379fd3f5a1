import EntitlementKit
import Foundation

/// A ledger's state in memory: for tests, a replay, or a server that rebuilds its state at launch.
public actor InMemoryLedgerStore: LedgerStore {
    private struct Tables: LedgerCommittedState {
        // Keyed by the key's bytes: a String key would make two ids that differ only in Unicode
        // normalisation ("café" composed and decomposed) one row, and the ledger compares ids by bytes.
        var rows: [LedgerTable: [AppUserIdKey: Data]] = [:]

        func value(in table: LedgerTable, key: String) -> Data? { rows[table]?[AppUserIdKey(key)] }

        func keys(in table: LedgerTable) -> [String] { rows[table].map { $0.keys.map(\.appUserId) } ?? [] }
    }

    private var tables = Tables()
    private let queue = LedgerTransactionQueue()

    /// An empty store.
    public init() {}

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result
    ) async throws(LedgerRefusal) -> Result {
        await queue.acquire()
        let transaction = BufferedLedgerTransaction(committed: tables)
        let result: Result
        do {
            result = try await body(transaction)
        } catch {
            await queue.release()
            throw error
        }
        for (table, rows) in transaction.changes {
            for (key, value) in rows { tables.rows[table, default: [:]][AppUserIdKey(key)] = value }
        }
        await queue.release()
        return result
    }
}
