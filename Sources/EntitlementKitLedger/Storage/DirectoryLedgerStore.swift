import EntitlementKit
import Foundation

/// Where a ``DirectoryLedgerStore`` commit is: a test process stops there to be killed mid-commit.
/// (`package`: a test hook, not API.)
package enum LedgerCommitStage: String, Sendable, CaseIterable {
    /// Half of the commit's record is in the log.
    case partlyAppended
    /// The whole record is in the log, not yet synced.
    case appended
    /// The log is synced: after each commit's append, or a batched store's every N-th and at
    /// ``DirectoryLedgerStore/sync()``.
    case synced
}

/// A ledger's state in a directory: an append-only log, `ledger.log`. Each transaction's writes are one
/// record appended to it and synced (or, for a bulk job, synced in batches: ``Syncing``); each row in a record carries a CRC-32C of its value, so a damaged
/// row is refused, never read: ``LedgerRefusal/Kind/damaged`` naming it (``LedgerRefusal/row``,
/// `table/key`), for the inputs and the snapshots that touch it only. (A checksum finds a disk's damage;
/// like any unkeyed seal it does not stop someone who may write the directory.)
///
/// A store keeps in memory where each row's newest value is in the log (not the values: they are read
/// from the file when asked for, the latest few mebibytes kept in a bounded cache), and catches up with the records other processes appended before each
/// transaction. Several processes on one machine may share the directory: a transaction reads without
/// the lock, then commits under a `flock` on the directory only when no record appended since wrote a
/// row it read or a row of a table it listed (else it runs again). A writer killed mid-append leaves an
/// unfinished record at the end: readers ignore it and the next writer cuts it off, so an input is never
/// half-applied. When the log grows past twice the size of its current rows (and past 8 MiB), a commit
/// writes the current rows into a new log and renames it into place; the other processes notice and read
/// their index again.
///
/// A directory of the earlier layout (one file per row) is converted to a log when a store first opens it.
public actor DirectoryLedgerStore: LedgerStore {
    private let files: CacheDirectoryFiles
    private let log: LedgerLog
    private let queue = LedgerTransactionQueue()
    private let commitStageObserver: (@Sendable (LedgerCommitStage) -> Void)?
    private let writeStageObserver: (@Sendable (CacheWriteStage) -> Void)?
    private let compactionMinimumSize: Int64
    /// 1 when every commit is synced.
    private let commitsPerSync: Int
    /// How many times a transaction runs again when another process changed what it read.
    private static let maximumAttempts = 1_000

    /// When a store makes its commits durable (synced to the disk, so that a power cut keeps them).
    public enum Syncing: Sendable, Hashable {
        /// Each commit is synced before its transaction returns: what a server needs, since a vendor
        /// does not resend a notification it saw acknowledged.
        case everyCommit
        /// Every 256th commit syncs the log, and ``DirectoryLedgerStore/sync()`` syncs what is left; call
        /// it before the job ends. For re-runnable bulk jobs (a replay, a backfill): each commit is still
        /// one whole record in the log, written under the lock and seen by other processes at once, and a
        /// killed process loses nothing (the system keeps what it wrote); only a power cut can lose the
        /// commits since the last sync, and running the same job again restores them. A store dropped
        /// without `sync()` does not sync itself (an actor's `deinit` cannot wait for it, nor report its
        /// failure): its last commits stay in the log, synced whenever the system writes them back.
        case batched
    }

    /// How many commits a ``Syncing/batched`` store makes between syncs.
    static let batchedCommitsPerSync = 256

    /// A store in `directory` (created, owner only, when missing), syncing as `syncing` says.
    public init(directory: URL, syncing: Syncing = .everyCommit) throws(LedgerRefusal) {
        try self.init(directory: directory, syncing: syncing, commitStageObserver: nil, writeStageObserver: nil)
    }

    /// A store whose commits report their stages, and whose compactions (and conversion) report the
    /// stages of the new file's write (tests only); it compacts past `compactionMinimumSize` bytes, and a
    /// batched one syncs every `commitsPerBatch` commits.
    package init(
        directory: URL, syncing: Syncing = .everyCommit, commitsPerBatch: Int = batchedCommitsPerSync,
        commitStageObserver: (@Sendable (LedgerCommitStage) -> Void)?,
        writeStageObserver: (@Sendable (CacheWriteStage) -> Void)?, compactionMinimumSize: Int64 = 8 << 20
    ) throws(LedgerRefusal) {
        files = CacheDirectoryFiles(path: directory.path)
        log = LedgerLog(directory: files.path)
        commitsPerSync = syncing == .everyCommit ? 1 : max(1, commitsPerBatch)
        self.commitStageObserver = commitStageObserver
        self.writeStageObserver = writeStageObserver
        self.compactionMinimumSize = compactionMinimumSize
        let (files, log) = (files, log)
        try Self.locked(files) { () throws(LedgerRefusal) in
            files.removeAbandonedTemporaryFiles()
            if FileManager.default.fileExists(atPath: log.path) {
                // A conversion cut short after its log was in place: the log holds every row.
                LedgerFolderLayout.remove(in: files.path)
            } else {
                let writer = try LedgerLogFileWriter(directory: files.path, stage: writeStageObserver)
                try LedgerFolderLayout.convert(files.path, into: writer)
                try writer.replace(log.path)
                LedgerFolderLayout.remove(in: files.path)
            }
            _ = try log.refresh(holdingLock: true)
        }
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
        let (log, stage, writeStage, minimum, commitsPerSync) = (
            log, commitStageObserver, writeStageObserver, compactionMinimumSize, commitsPerSync
        )
        for _ in 0..<Self.maximumAttempts {
            if case .needsLock = try log.refresh(holdingLock: false) {
                _ = try log.withDirectoryLock { () throws(LedgerRefusal) in try log.refresh(holdingLock: true) }
            }
            let rows = DirectoryLedgerRows(log: log)
            let transaction = BufferedLedgerTransaction(committed: rows)
            let result = try await body(transaction)
            let written = transaction.rowChanges
            let changes = LedgerTable.allCases.flatMap { table in
                written[table].map {
                    LedgerLogFormat.Row(
                        table: table, key: $0.key.key, kind: $0.value == nil ? .removed : .value,
                        value: $0.value ?? Data())
                }
            }
            // A transaction that wrote nothing read one consistent state: nothing to commit.
            if changes.isEmpty { return result }
            let committed = try log.withDirectoryLock { () throws(LedgerRefusal) -> Bool in
                guard case .appended(let others) = try log.refresh(holdingLock: true), rows.isUnaffected(by: others)
                else { return false }
                try log.append(changes, commitsPerSync: commitsPerSync, stage: stage)
                try log.compactIfLarge(minimumSize: minimum, stage: writeStage)
                return true
            }
            if committed { return result }
        }
        throw LedgerRefusal(.storage, "the ledger directory kept changing under other processes")
    }

    /// Syncs the commits this store made since its last sync (a ``Syncing/batched`` store's; an
    /// ``Syncing/everyCommit`` store has none). A transaction still running is not one of them.
    public func sync() async throws(LedgerRefusal) {
        try log.sync(stage: commitStageObserver)
    }

    /// Where the value of `key` in `table` is in the log file, `ledger.log` (tests damage it there).
    package func valueRange(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Range<Int64>? {
        if case .needsLock = try log.refresh(holdingLock: false) { return nil }
        return log.valueRange(in: table, key: key)
    }

    /// The log file's size, and the size of its current rows.
    package func logSizes() throws(LedgerRefusal) -> (file: Int64, live: Int64) {
        _ = try log.refresh(holdingLock: false)
        return (log.size, log.liveSize)
    }

    private static func locked<T>(
        _ files: CacheDirectoryFiles, _ body: () throws(LedgerRefusal) -> T
    ) throws(LedgerRefusal) -> T {
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
}
