import Foundation

/// Where a buffered transaction reads what it has not written: the store's committed state.
protocol LedgerCommittedState: Sendable {
    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data?
    func keys(in table: LedgerTable) throws(LedgerRefusal) -> [String]
}

/// A transaction that keeps its writes in memory until the store commits them at once: what the
/// bundled stores hand to the ledger. Used by one task at a time; the lock only satisfies `Sendable`.
final class BufferedLedgerTransaction: LedgerStoreTransaction, @unchecked Sendable {
    private let committed: any LedgerCommittedState
    private let lock = NSLock()
    private var writes: [LedgerTable: [String: Data?]] = [:]

    init(committed: any LedgerCommittedState) {
        self.committed = committed
    }

    /// The writes, by table and key (`nil`: removed).
    var changes: [LedgerTable: [String: Data?]] { lock.withLock { writes } }

    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data? {
        if let written = lock.withLock({ writes[table]?[key] }) { return written }
        return try committed.value(in: table, key: key)
    }

    func setValue(_ value: Data?, in table: LedgerTable, key: String) {
        lock.withLock { writes[table, default: [:]][key] = .some(value) }
    }

    func keys(in table: LedgerTable) throws(LedgerRefusal) -> [String] {
        var keys = Set(try committed.keys(in: table))
        for (key, value) in lock.withLock({ writes[table] ?? [:] }) {
            if value == nil { keys.remove(key) } else { keys.insert(key) }
        }
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// Runs one transaction at a time, in arrival order, across suspension points (an actor alone would
/// interleave two transactions at their awaits).
actor LedgerTransactionQueue {
    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard isBusy else {
            isBusy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { isBusy = false } else { waiting.removeFirst().resume() }
    }
}
