import EntitlementKit
import Foundation

/// Where a ``DirectoryLedgerStore`` commit is: a test process stops there to be killed mid-commit.
/// (`package`: a test hook, not API.)
package enum LedgerCommitStage: String, Sendable, CaseIterable {
    /// The journal of the transaction's writes is in place; no row is written yet.
    case journalWritten
    /// Some of the rows are written, not all.
    case partlyApplied
    /// Every row is written; the journal is not yet removed.
    case applied
}

/// A ledger's state in a directory: one file per row, each written as the client cache writes its files
/// (a temporary file, synced, renamed into place) and sealed with a SHA-256, so a damaged row is refused,
/// never read: ``LedgerRefusal/Kind/damaged`` naming it (``LedgerRefusal/row``, `table/key`), for the inputs
/// and the snapshots that touch it only.
///
/// Several processes on one machine may share the directory. A transaction reads without the lock,
/// then commits under a `flock` on the directory only when every row it read is still the one it read
/// (else it runs again): the commit first writes a journal of all its rows, then the rows, then removes
/// the journal. A writer killed at any point leaves either no journal (nothing of the input was written)
/// or a whole one, which the next transaction of any process applies before reading: an input is never
/// half-applied.
public actor DirectoryLedgerStore: LedgerStore {
    private let files: CacheDirectoryFiles
    private let queue = LedgerTransactionQueue()
    private let commitStageObserver: (@Sendable (LedgerCommitStage) -> Void)?
    private static let journalName = "journal"
    /// How many times a transaction runs again when another process changed what it read.
    private static let maximumAttempts = 1_000

    /// A store in `directory` (created, owner only, when missing).
    public init(directory: URL) throws(LedgerRefusal) {
        try self.init(directory: directory, commitStageObserver: nil, writeStageObserver: nil)
    }

    /// A store whose commits report their stages (tests only).
    package init(
        directory: URL, commitStageObserver: (@Sendable (LedgerCommitStage) -> Void)?,
        writeStageObserver: (@Sendable (CacheWriteStage) -> Void)?
    ) throws(LedgerRefusal) {
        files = CacheDirectoryFiles(path: directory.path, writeStageObserver: writeStageObserver)
        self.commitStageObserver = commitStageObserver
        do {
            // Creates the directory (the lock file lives in it).
            try files.withLock { () throws(EntitlementCacheError) in }
        } catch {
            throw LedgerRefusal(.storage, error.message)
        }
        files.removeAbandonedTemporaryFiles()
        for table in LedgerTable.allCases { tableFiles(table).removeAbandonedTemporaryFiles() }
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result
    ) async throws(LedgerRefusal) -> Result {
        await queue.acquire()
        do {
            let result = try await run(body)
            await queue.release()
            return result
        } catch {
            await queue.release()
            throw error
        }
    }

    private func run<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result
    ) async throws(LedgerRefusal) -> Result {
        for _ in 0..<Self.maximumAttempts {
            if files.stamp(of: Self.journalName) != Self.missing {
                _ = try locked { () throws(LedgerRefusal) in try recoverJournal() }
            }
            let rows = DirectoryLedgerRows(files: files)
            let transaction = BufferedLedgerTransaction(committed: rows)
            let result = try await body(transaction)
            let changes = transaction.changes
            let committed = try locked { () throws(LedgerRefusal) -> Bool in
                if try recoverJournal() { return false }
                guard rows.readsAreCurrent() else { return false }
                try commit(changes)
                return true
            }
            if committed { return result }
        }
        throw LedgerRefusal(.storage, "the ledger directory kept changing under other processes")
    }

    private static let missing = CacheStamp([-1])

    /// A table's folder: rows are written there, each through a temporary file of its own folder. (Only
    /// the journal's write reports its stages to a test.)
    private nonisolated func tableFiles(_ table: LedgerTable) -> CacheDirectoryFiles {
        CacheDirectoryFiles(path: files.path + "/" + table.rawValue)
    }

    private func locked<T>(_ body: () throws(LedgerRefusal) -> T) throws(LedgerRefusal) -> T {
        var refusal: LedgerRefusal?
        var value: T?
        do throws(EntitlementCacheError) {
            try files.withLock { () throws(EntitlementCacheError) in
                do throws(LedgerRefusal) {
                    value = try body()
                } catch {
                    refusal = error
                }
            }
        } catch {
            throw LedgerRefusal(.storage, error.message)
        }
        if let refusal { throw refusal }
        guard let value else { throw LedgerRefusal(.storage, "the ledger directory's lock failed") }
        return value
    }

    /// Writes every change: the journal, the rows, then no journal. Called under the lock.
    private func commit(_ changes: [LedgerTable: [(key: String, value: Data?)]]) throws(LedgerRefusal) {
        let rows = changes.flatMap { table, rows in rows.map { (table, $0.key, $0.value) } }
        guard !rows.isEmpty else { return }
        let journal = LedgerJournal(rows: rows.map { LedgerJournal.Row(table: $0.0, key: $0.1, value: $0.2) })
        try write(journal.sealedBytes(), to: files, name: Self.journalName)
        commitStageObserver?(.journalWritten)
        try apply(journal)
        commitStageObserver?(.applied)
        files.removeFile(Self.journalName)
    }

    /// Applies a journal a killed writer left, if any; whether there was one. Called under the lock.
    @discardableResult
    private func recoverJournal() throws(LedgerRefusal) -> Bool {
        guard let bytes = files.readFile(Self.journalName) else {
            guard files.stamp(of: Self.journalName) == Self.missing else {
                throw LedgerRefusal(.storage, "the ledger directory's journal cannot be read")
            }
            return false
        }
        try apply(try LedgerJournal(sealed: bytes))
        files.removeFile(Self.journalName)
        return true
    }

    private func apply(_ journal: LedgerJournal) throws(LedgerRefusal) {
        for (index, row) in journal.rows.enumerated() {
            let table = tableFiles(row.table)
            let name = DirectoryLedgerRows.fileName(row.key)
            if let value = row.value {
                try write(DirectoryLedgerRows.sealedRow(key: row.key, value: value), to: table, name: name)
            } else {
                table.removeFile(name)
            }
            if index == 0 && journal.rows.count > 1 { commitStageObserver?(.partlyApplied) }
        }
    }

    private func write(_ data: Data, to files: CacheDirectoryFiles, name: String) throws(LedgerRefusal) {
        do {
            try files.writeFile(data, to: name)
        } catch {
            throw LedgerRefusal(.storage, error.message)
        }
    }
}
