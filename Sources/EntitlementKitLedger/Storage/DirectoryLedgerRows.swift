import EntitlementKit
import Foundation

/// The committed rows of a ``DirectoryLedgerStore`` as one transaction reads them, remembering which
/// rows it read and which tables it listed, so the commit can tell whether another process's records,
/// appended since, changed any of them.
final class DirectoryLedgerRows: LedgerCommittedState, @unchecked Sendable {
    private let log: LedgerLog
    private let lock = NSLock()
    /// Kept in reading order; looked up only when another process appended since (rarely).
    private var rowsRead: [(table: LedgerTable, key: String)] = []
    private var tablesListed: Set<LedgerTable> = []

    init(log: LedgerLog) {
        self.log = log
    }

    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data? {
        lock.withLock { rowsRead.append((table, key)) }
        return try log.value(in: table, key: key)
    }

    func keys(in table: LedgerTable) -> [String] {
        _ = lock.withLock { tablesListed.insert(table) }
        return log.keys(in: table)
    }

    /// Whether none of `rows` (written by others since this transaction's reads) is one it read, or
    /// belongs to a table it listed.
    func isUnaffected(by rows: [LedgerLogRowID]) -> Bool {
        guard !rows.isEmpty else { return true }
        let written = Set(rows)
        return lock.withLock {
            rows.allSatisfy { !tablesListed.contains($0.table) }
                && rowsRead.allSatisfy { !written.contains(LedgerLogRowID(table: $0.table, key: LedgerRowKey($0.key))) }
        }
    }
}
