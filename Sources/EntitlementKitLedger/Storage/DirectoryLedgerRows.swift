import EntitlementKit
import Foundation

/// The committed rows of a ``DirectoryLedgerStore`` as one transaction reads them, remembering which
/// rows it read and which tables it listed, so the commit can tell whether another process's records,
/// appended since, changed any of them.
final class DirectoryLedgerRows: LedgerCommittedState, @unchecked Sendable {
    private let log: LedgerLog
    private let lock = NSLock()
    private var rowsRead: Set<LedgerLogRowID> = []
    private var tablesListed: Set<LedgerTable> = []

    init(log: LedgerLog) {
        self.log = log
    }

    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data? {
        _ = lock.withLock { rowsRead.insert(LedgerLogRowID(table: table, key: AppUserIdKey(key))) }
        return try log.value(in: table, key: key)
    }

    func keys(in table: LedgerTable) -> [String] {
        _ = lock.withLock { tablesListed.insert(table) }
        return log.keys(in: table)
    }

    /// Whether none of `rows` (written by others since this transaction's reads) is one it read, or
    /// belongs to a table it listed.
    func isUnaffected(by rows: [LedgerLogRowID]) -> Bool {
        lock.withLock { rows.allSatisfy { !rowsRead.contains($0) && !tablesListed.contains($0.table) } }
    }
}
