import EntitlementKit
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
    /// Keyed by the key's bytes, as the ledger compares ids.
    private var writes: [LedgerTable: [AppUserIdKey: Data?]] = [:]

    init(committed: any LedgerCommittedState) {
        self.committed = committed
    }

    /// The writes, by table and key (`nil`: removed).
    var changes: [LedgerTable: [(key: String, value: Data?)]] {
        lock.withLock { writes.mapValues { rows in rows.map { (key: $0.key.appUserId, value: $0.value) } } }
    }

    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data? {
        if let written = lock.withLock({ writes[table]?[AppUserIdKey(key)] }) { return written }
        return try committed.value(in: table, key: key)
    }

    func setValue(_ value: Data?, in table: LedgerTable, key: String) {
        lock.withLock { writes[table, default: [:]][AppUserIdKey(key)] = .some(value) }
    }

    func keys(in table: LedgerTable) throws(LedgerRefusal) -> [String] {
        var keys = Set(try committed.keys(in: table).map(AppUserIdKey.init))
        for (key, value) in lock.withLock({ writes[table] ?? [:] }) {
            if value == nil { keys.remove(key) } else { keys.insert(key) }
        }
        return keys.map(\.appUserId).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
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
