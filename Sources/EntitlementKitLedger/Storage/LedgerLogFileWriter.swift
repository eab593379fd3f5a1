import EntitlementKit
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A whole new log, written beside the old one and renamed over it once complete and synced: what a
/// compaction and the conversion of an earlier layout write. A writer killed before the rename leaves a
/// temporary file (named as the cache's, `.tmp-<process id>-…`, removed when the next store opens) and the
/// old log or layout as it was. Rows are buffered into records of about a mebibyte, so memory stays flat.
final class LedgerLogFileWriter {
    private static let recordSize = 1 << 20
    private let directory: String
    private let temporary: String
    private let descriptor: Int32
    private let stage: ((CacheWriteStage) -> Void)?
    private var offset: Int64 = 0
    private var sequence: UInt64 = 0
    private var pending: [LedgerLogFormat.Row] = []
    private var pendingSize = 0
    private var finished = false

    init(directory: String, stage: ((CacheWriteStage) -> Void)?) throws(LedgerRefusal) {
        self.directory = directory
        self.stage = stage
        temporary =
            directory + "/.tmp-\(getpid())-" + String(UInt64.random(in: .min ... .max), radix: 16)
        descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LedgerLog.failure("create a new file beside", directory) }
        try write(LedgerLogFormat.fileMagic)
    }

    deinit {
        close(descriptor)
        if !finished { unlink(temporary) }
    }

    func add(_ row: LedgerLogFormat.Row) throws(LedgerRefusal) {
        pending.append(row)
        pendingSize += LedgerLogFormat.rowHeadSize + row.key.utf8.count + row.value.count
        if pendingSize >= Self.recordSize { try flush() }
    }

    private func flush() throws(LedgerRefusal) {
        guard !pending.isEmpty else { return }
        sequence += 1
        try write(LedgerLogFormat.record(sequence: sequence, rows: pending))
        if sequence == 1 { stage?(.partlyWritten) }
        pending = []
        pendingSize = 0
    }

    private func write(_ bytes: [UInt8]) throws(LedgerRefusal) {
        guard bytes.withUnsafeBytes({ LedgerLog.writeFully(descriptor, $0, at: offset) }) else {
            throw LedgerLog.failure("write", temporary)
        }
        offset += Int64(bytes.count)
    }

    /// Syncs the new file and renames it to `path`, then syncs the directory.
    func replace(_ path: String) throws(LedgerRefusal) {
        try flush()
        guard fsync(descriptor) == 0 else { throw LedgerLog.failure("sync", temporary) }
        stage?(.synced)
        guard rename(temporary, path) == 0 else { throw LedgerLog.failure("rename into place", path) }
        finished = true
        stage?(.renamed)
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }
}
