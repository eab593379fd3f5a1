import EntitlementKit
import Foundation

/// Where a buffered transaction reads what it has not written: the store's committed state.
protocol LedgerCommittedState: Sendable {
    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data?
    func keys(in table: LedgerTable) throws(LedgerRefusal) -> [String]
}

/// A row's key, compared and hashed by its UTF-8 bytes: a String key would make two ids that differ only
/// in Unicode normalisation ("café" composed and decomposed) one row, and the ledger compares ids by bytes.
struct LedgerRowKey: Hashable, Sendable {
    let key: String

    init(_ key: String) {
        var key = key
        // Native UTF-8 once, so that every hash and comparison reads the bytes in place.
        key.makeContiguousUTF8()
        self.key = key
    }

    static func == (lhs: LedgerRowKey, rhs: LedgerRowKey) -> Bool {
        guard lhs.key.utf8.count == rhs.key.utf8.count else { return false }
        var left = lhs.key
        var right = rhs.key
        return left.withUTF8 { left in
            right.withUTF8 { right in
                guard let first = left.baseAddress, let second = right.baseAddress else { return true }
                return memcmp(first, second, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var key = key
        key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// One dictionary of rows per table, found by the table's place (no hashing of the table's name).
struct LedgerTableRows<Value: Sendable>: Sendable {
    private var tables = [[LedgerRowKey: Value]](repeating: [:], count: LedgerTable.allCases.count)

    subscript(table: LedgerTable) -> [LedgerRowKey: Value] {
        get { tables[table.position] }
        _modify { yield &tables[table.position] }
    }
}

extension LedgerTable {
    /// The table's place among ``allCases``.
    fileprivate var position: Int {
        switch self {
        case .threads: 0
        case .statements: 1
        case .threadAliases: 2
        case .customers: 3
        case .appUserIds: 4
        case .accountLinks: 5
        case .unlinkedThreads: 6
        case .notifications: 7
        case .counters: 8
        case .purchaseLinks: 9
        }
    }
}

/// A transaction that keeps its writes in memory until the store commits them at once: what the
/// bundled stores hand to the ledger. Used by one task at a time; the lock only satisfies `Sendable`.
final class BufferedLedgerTransaction: LedgerStoreTransaction, @unchecked Sendable {
    private let committed: any LedgerCommittedState
    private let lock = NSLock()
    /// Keyed by the key's bytes, as the ledger compares ids (`nil`: removed).
    private var writes = LedgerTableRows<Data?>()

    init(committed: any LedgerCommittedState) {
        self.committed = committed
    }

    /// The writes, by table and key (`nil`: removed).
    var rowChanges: LedgerTableRows<Data?> { lock.withLock { writes } }

    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data? {
        if let written = lock.withLock({ writes[table][LedgerRowKey(key)] }) { return written }
        return try committed.value(in: table, key: key)
    }

    func setValue(_ value: Data?, in table: LedgerTable, key: String) {
        lock.withLock { writes[table][LedgerRowKey(key)] = .some(value) }
    }

    func keys(in table: LedgerTable) throws(LedgerRefusal) -> [String] {
        var keys = Set(try committed.keys(in: table).map(LedgerRowKey.init))
        for (key, value) in lock.withLock({ writes[table] }) {
            if value == nil { keys.remove(key) } else { keys.insert(key) }
        }
        return keys.map(\.key).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
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
