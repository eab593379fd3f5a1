import EntitlementKit
import Foundation

/// A ledger's state in memory: for tests, a replay, or a server that rebuilds its state at launch.
public actor InMemoryLedgerStore: LedgerStore {
    private struct Tables: LedgerCommittedState {
        var rows = LedgerTableRows<Data>()

        func value(in table: LedgerTable, key: String) -> Data? { rows[table][LedgerRowKey(key)] }

        func keys(in table: LedgerTable) -> [String] { rows[table].keys.map(\.key) }
    }

    private var tables = Tables()
    private let queue = LedgerTransactionQueue()

    /// An empty store.
    public init() {}

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result
    ) async throws(LedgerRefusal) -> Result {
        await queue.acquire()
        let result: Result
        let changes: LedgerTableRows<Data?>
        do {
            // The transaction (and its copy of the committed rows) ends with this scope: writing the rows
            // below while it still held them would copy every table at each commit, a cost growing with
            // the whole state instead of with the input.
            let transaction = BufferedLedgerTransaction(committed: tables)
            result = try await body(transaction)
            changes = transaction.rowChanges
        } catch {
            await queue.release()
            throw error
        }
        for table in LedgerTable.allCases {
            for (key, value) in changes[table] { tables.rows[table][key] = value }
        }
        await queue.release()
        return result
    }
}
