import EntitlementKit
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A row of the log, by table and key (the key compared by its bytes, as the ledger compares ids).
struct LedgerLogRowID: Hashable {
    var table: LedgerTable
    var key: LedgerRowKey
}

/// One process's view of a ``DirectoryLedgerStore``'s log: the open file and an index of where each row's
/// newest value is (not the values: they are read with `pread` when asked for, and the latest few kept in
/// a bounded ``LedgerValueCache``), brought up to date by reading the records appended since it last
/// looked. Used by one store, one transaction at a time; the lock only satisfies `Sendable`.
final class LedgerLog: @unchecked Sendable {
    static let fileName = "ledger.log"

    private struct Entry {
        var valueOffset: Int64
        var valueLength: Int32
        var valueCRC: UInt32
        var isDamaged: Bool
        /// The row's bytes in the log, counted toward the live size.
        var rowSize: Int32
    }

    let directory: String
    var path: String { directory + "/" + Self.fileName }
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    /// The directory's lock file, `.lock` (the one `CacheDirectoryFiles` locks), open while the log is.
    private var lockDescriptor: Int32 = -1
    private var identity: (device: UInt64, inode: UInt64) = (0, 0)
    /// Where the records read so far end (the next record starts there).
    private var end: Int64 = 0
    private var sequence: UInt64 = 0
    private var index = LedgerTableRows<Entry>()
    private var cache = LedgerValueCache()
    /// The bytes of the rows the index points to: the log's size when it was compacted.
    private var liveBytes: Int64 = 0
    /// Records this process appended and has not synced yet (a batched store's).
    private var unsyncedRecords = 0

    init(directory: String) {
        self.directory = directory
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    /// Runs `body` holding the directory's lock: an exclusive `flock` on `.lock`, the file that
    /// `CacheDirectoryFiles.withLock` locks, kept open so that a commit costs two calls, not six. A process
    /// killed holding it releases it.
    func withDirectoryLock<T>(_ body: () throws(LedgerRefusal) -> T) throws(LedgerRefusal) -> T {
        let lockDescriptor = lock.withLock {
            if self.lockDescriptor < 0 {
                self.lockDescriptor = open(directory + "/.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
            return self.lockDescriptor
        }
        guard lockDescriptor >= 0 else { throw Self.failure("open the lock file beside", path) }
        while flock(lockDescriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.failure("lock the lock file beside", path) }
        }
        defer { _ = flock(lockDescriptor, LOCK_UN) }
        return try body()
    }

    /// The log's size as read so far.
    var size: Int64 { lock.withLock { end } }

    /// The size of the rows that are current.
    var liveSize: Int64 { lock.withLock { liveBytes } }

    // MARK: Catching up

    /// What ``refresh(holdingLock:)`` found.
    enum Refresh {
        /// The rows the records appended since the last refresh wrote.
        case appended([LedgerLogRowID])
        /// The file was replaced (compacted): the index was read again from the new one.
        case replaced
        /// Bytes that are no record, seen without the lock: look again holding it.
        case needsLock
    }

    /// Reads what was appended since the last look (or the whole file when it was replaced). Holding the
    /// directory's lock, an unfinished record at the end — a killed writer's — is cut off, and damage is
    /// refused; without it, both are left alone (a writer may be appending).
    func refresh(holdingLock: Bool) throws(LedgerRefusal) -> Refresh {
        lock.lock()
        defer { lock.unlock() }
        var status = stat()
        // The open file still linked is still the log: a compaction renames a new file over it, which
        // leaves it none. `fstat` gives that and the size without walking the path.
        if descriptor >= 0, fstat(descriptor, &status) == 0, status.st_nlink > 0 {
            let size = Int64(status.st_size)
            if size == end { return .appended([]) }
            var touched: [LedgerLogRowID] = []
            let complete = try readRecords(fileSize: size, holdingLock: holdingLock, touched: &touched)
            return complete ? .appended(touched) : .needsLock
        }
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw LedgerRefusal(.storage, "the ledger log \(path) is missing or not a file")
        }
        var replaced = false
        if descriptor < 0 || (UInt64(status.st_dev), UInt64(status.st_ino)) != identity {
            try reopen()
            replaced = true
        }
        // The same file: its size is the one just seen (no other call). A file opened anew may have been
        // replaced again since: ask it.
        let size = replaced ? nil : Int64(status.st_size)
        if size == end { return .appended([]) }
        var touched: [LedgerLogRowID] = []
        let complete = try readRecords(fileSize: size, holdingLock: holdingLock, touched: &touched)
        if !complete { return .needsLock }
        return replaced ? .replaced : .appended(touched)
    }

    private func reopen() throws(LedgerRefusal) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("open", path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("inspect", path) }
        identity = (UInt64(status.st_dev), UInt64(status.st_ino))
        index = LedgerTableRows()
        cache.removeAll()
        liveBytes = 0
        sequence = 0
        var magic = [UInt8](repeating: 0, count: LedgerLogFormat.fileMagic.count)
        guard try readExactly(&magic, at: 0), magic == LedgerLogFormat.fileMagic else {
            throw LedgerRefusal(.storage, "\(path) is not a ledger log (its first bytes are not `EKLEDGR1`)")
        }
        end = Int64(magic.count)
    }

    /// Reads the records from `end` to the file's end (`fileSize`, or asked for) into the index; `false`
    /// when it met damage without the lock.
    private func readRecords(
        fileSize knownSize: Int64?, holdingLock: Bool, touched: inout [LedgerLogRowID]
    ) throws(LedgerRefusal) -> Bool {
        var fileSize = knownSize ?? 0
        if knownSize == nil {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Self.failure("inspect", path) }
            fileSize = Int64(status.st_size)
        }
        var chunkSize = 1 << 20
        while end < fileSize {
            let available = Int(min(Int64(chunkSize), fileSize - end))
            var buffer = [UInt8](repeating: 0, count: available)
            let count = try readAvailable(&buffer, at: end)
            var consumed = 0
            var stop: LedgerLogFormat.Parsed?
            buffer.withUnsafeBytes { all in
                while consumed < count {
                    let parsed = LedgerLogFormat.parse(UnsafeRawBufferPointer(rebasing: all[consumed..<count]))
                    guard case .record(let length, let recordSequence, let rows) = parsed else {
                        stop = parsed
                        return
                    }
                    guard recordSequence == sequence + 1 else {
                        stop = .damaged("a record's sequence number is \(recordSequence), not \(sequence + 1)")
                        return
                    }
                    sequence = recordSequence
                    let base = end + Int64(consumed)
                    for row in rows { apply(row, recordStart: base, touched: &touched) }
                    consumed += length
                }
            }
            end += Int64(consumed)
            switch stop {
            case nil, .record:
                continue
            case .incomplete(let length):
                let needed = length ?? LedgerLogFormat.recordHeadSize
                // A file shorter than it was a moment ago (a writer holding the lock cut a tail): look later.
                if count < available { return true }
                guard count - consumed < needed else {
                    return try refuse("a record that cannot be read", holdingLock: holdingLock)
                }
                if end + Int64(needed) <= fileSize {
                    // The record runs past this chunk: read it whole.
                    chunkSize = max(chunkSize, needed)
                    continue
                }
                // The end of what is written: an append in progress, or a dead writer's unfinished one.
                if holdingLock { try cutTail(at: end) }
                return true
            case .zeros:
                guard try onlyZeros(from: end, to: fileSize) else {
                    return try refuse("zeros where a record should start", holdingLock: holdingLock)
                }
                if holdingLock { try cutTail(at: end) }
                return true
            case .damaged(let reason):
                return try refuse(reason, holdingLock: holdingLock)
            }
        }
        return true
    }

    /// `false` (look again holding the lock) without the lock; a refusal holding it.
    private func refuse(_ damage: String, holdingLock: Bool) throws(LedgerRefusal) -> Bool {
        guard holdingLock else { return false }
        throw LedgerRefusal(
            .storage,
            "the ledger log \(path) is damaged at byte \(end): \(damage); restore the directory from a "
                + "backup, or rebuild it by replaying its inputs (`entitlements ledger replay --state NEW LOG`)")
    }

    /// Whether the file holds only zeros from `start` to `fileSize`.
    private func onlyZeros(from start: Int64, to fileSize: Int64) throws(LedgerRefusal) -> Bool {
        var offset = start
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while offset < fileSize {
            let count = try readAvailable(&buffer, at: offset)
            guard count > 0 else { return true }
            guard buffer[0..<count].allSatisfy({ $0 == 0 }) else { return false }
            offset += Int64(count)
        }
        return true
    }

    private func apply(_ row: LedgerLogFormat.RowFrame, recordStart: Int64, touched: inout [LedgerLogRowID]) {
        touched.append(LedgerLogRowID(table: row.table, key: apply(row, recordStart: recordStart)))
    }

    /// Indexes `row` of the record at `recordStart`; its key.
    @discardableResult
    private func apply(_ row: LedgerLogFormat.RowFrame, recordStart: Int64) -> LedgerRowKey {
        let key = LedgerRowKey(row.key)
        let entry: Entry? =
            row.kind == .removed
            ? nil
            : Entry(
                valueOffset: recordStart + Int64(row.valueStart), valueLength: Int32(row.valueLength),
                valueCRC: row.valueCRC, isDamaged: row.kind == .damaged,
                rowSize: Int32(LedgerLogFormat.rowHeadSize + row.key.utf8.count + row.valueLength))
        let old =
            entry.map { index[row.table].updateValue($0, forKey: key) } ?? index[row.table].removeValue(forKey: key)
        if let old { liveBytes -= Int64(old.rowSize) }
        if let entry { liveBytes += Int64(entry.rowSize) }
        return key
    }

    /// Cuts off an unfinished record a killed writer left (called holding the lock, so no writer is live).
    private func cutTail(at offset: Int64) throws(LedgerRefusal) {
        guard ftruncate(descriptor, off_t(offset)) == 0, fsync(descriptor) == 0 else {
            throw Self.failure("cut an unfinished record off", path)
        }
    }

    // MARK: Reading rows

    /// The newest value of `key` in `table`, or `nil`; a row whose checksum does not match is refused
    /// (`damaged`, naming it).
    func value(in table: LedgerTable, key: String) throws(LedgerRefusal) -> Data? {
        let (entry, descriptor, cached) = lock.withLock {
            let entry = index[table][LedgerRowKey(key)]
            return (entry, self.descriptor, entry.flatMap { cache.value(at: $0.valueOffset) })
        }
        guard let entry else { return nil }
        if let cached { return cached }
        guard !entry.isDamaged else { throw Self.damaged(table, key, "an earlier layout held it damaged") }
        var bytes = Data(count: Int(entry.valueLength))
        let complete = bytes.withUnsafeMutableBytes { buffer in
            Self.readFully(descriptor, buffer, at: entry.valueOffset)
        }
        guard complete else { throw Self.failure("read a row of", path) }
        guard bytes.withUnsafeBytes({ CRC32C.checksum($0) }) == entry.valueCRC else {
            throw Self.damaged(table, key, "its checksum does not match its bytes")
        }
        lock.withLock {
            // Unless the file was replaced meanwhile (the offset would be another file's).
            if descriptor == self.descriptor { cache.insert(bytes, at: entry.valueOffset) }
        }
        return bytes
    }

    /// Every key of `table` (a damaged row's too: reading it is what refuses).
    func keys(in table: LedgerTable) -> [String] {
        lock.withLock { index[table].keys.map(\.key) }
    }

    /// Where the value of `key` in `table` is in the file (tests damage it there).
    func valueRange(in table: LedgerTable, key: String) -> Range<Int64>? {
        lock.withLock {
            index[table][LedgerRowKey(key)].map { $0.valueOffset..<($0.valueOffset + Int64($0.valueLength)) }
        }
    }

    private static func damaged(_ table: LedgerTable, _ key: String, _ why: String) -> LedgerRefusal {
        LedgerRefusal(
            .damaged, "the ledger row \(table.rawValue)/\(key) is damaged: \(why)", row: table.rawValue + "/" + key)
    }

    // MARK: Writing

    /// Appends one record holding `rows` and indexes it; syncs the log when this makes `commitsPerSync`
    /// records appended by this process since its last sync (1: every record). Called holding the lock,
    /// after a ``refresh(holdingLock:)`` that found the file whole. `stage` is told where the append is
    /// (tests).
    func append(
        _ rows: [LedgerLogFormat.Row], commitsPerSync: Int, stage: ((LedgerCommitStage) -> Void)?
    ) throws(LedgerRefusal) {
        lock.lock()
        defer { lock.unlock() }
        var frames: [LedgerLogFormat.RowFrame] = []
        let bytes = LedgerLogFormat.record(sequence: sequence + 1, rows: rows, frames: &frames)
        let start = end
        // Half first when a test watches, so it can stop the writer with an unfinished record.
        let half = stage == nil ? 0 : bytes.count / 2
        if half > 0 {
            guard bytes[0..<half].withUnsafeBytes({ Self.writeFully(descriptor, $0, at: start) }) else {
                throw Self.failure("append to", path)
            }
            stage?(.partlyAppended)
        }
        guard bytes[half...].withUnsafeBytes({ Self.writeFully(descriptor, $0, at: start + Int64(half)) }) else {
            // Leave no partial record behind for this process's next append.
            _ = ftruncate(descriptor, off_t(start))
            throw Self.failure("append to", path)
        }
        stage?(.appended)
        if unsyncedRecords + 1 >= commitsPerSync {
            guard Self.syncData(descriptor) else {
                _ = ftruncate(descriptor, off_t(start))
                throw Self.failure("sync", path)
            }
            unsyncedRecords = 0
            stage?(.synced)
        } else {
            unsyncedRecords += 1
        }
        for (frame, row) in zip(frames, rows) {
            apply(frame, recordStart: start)
            if row.kind == .value { cache.insert(row.value, at: start + Int64(frame.valueStart)) }
        }
        sequence += 1
        end = start + Int64(bytes.count)
    }

    /// Syncs the records this process appended since its last sync, if any. (When another process
    /// compacted the log since, its new file holding them was synced before it replaced this one.)
    func sync(stage: ((LedgerCommitStage) -> Void)?) throws(LedgerRefusal) {
        lock.lock()
        defer { lock.unlock() }
        guard unsyncedRecords > 0 else { return }
        guard Self.syncData(descriptor) else { throw Self.failure("sync", path) }
        unsyncedRecords = 0
        stage?(.synced)
    }

    /// Writes the live rows into a new file and renames it over the log, when the log is more than twice
    /// their size and larger than `minimumSize`. Called holding the lock; other processes notice the new
    /// file (its inode) and read their index again.
    func compactIfLarge(minimumSize: Int64, stage: ((CacheWriteStage) -> Void)?) throws(LedgerRefusal) {
        let (size, live) = lock.withLock { (end, liveBytes) }
        guard size > minimumSize, size > 2 * live else { return }
        let rows = lock.withLock { LedgerTable.allCases.flatMap { table in index[table].keys.map { (table, $0.key) } } }
        let writer = try LedgerLogFileWriter(directory: directory, stage: stage)
        for (table, key) in rows {
            do throws(LedgerRefusal) {
                if let value = try value(in: table, key: key) {
                    try writer.add(LedgerLogFormat.Row(table: table, key: key, kind: .value, value: value))
                }
            } catch  where error.kind == .damaged {
                try writer.add(LedgerLogFormat.Row(table: table, key: key, kind: .damaged, value: Data()))
            }
        }
        try writer.replace(path)
        // The new file, synced, holds every record appended so far.
        lock.withLock { unsyncedRecords = 0 }
        _ = try refresh(holdingLock: true)
    }

    // MARK: File access

    private func readExactly(_ buffer: inout [UInt8], at offset: Int64) throws(LedgerRefusal) -> Bool {
        let descriptor = descriptor
        return buffer.withUnsafeMutableBytes { Self.readFully(descriptor, $0, at: offset) }
    }

    /// Reads up to the buffer's size (fewer at the file's end); how many bytes.
    private func readAvailable(_ buffer: inout [UInt8], at offset: Int64) throws(LedgerRefusal) -> Int {
        let descriptor = descriptor
        guard let count = buffer.withUnsafeMutableBytes({ Self.read(descriptor, $0, at: offset) }) else {
            throw Self.failure("read", path)
        }
        return count
    }

    /// Fills `buffer` from `offset`, or up to the file's end; how many bytes, `nil` on an error.
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int? {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            done += count
        }
        return done
    }

    static func readFully(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Bool {
        read(descriptor, buffer, at: offset) == buffer.count
    }

    static func writeFully(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, base + done, bytes.count - done, off_t(offset) + off_t(done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Makes written bytes durable (the data and the size; not the times).
    static func syncData(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            fsync(descriptor) == 0
        #else
            fdatasync(descriptor) == 0
        #endif
    }

    static func failure(_ action: String, _ path: String) -> LedgerRefusal {
        LedgerRefusal(.storage, "could not \(action) the ledger log \(path): \(String(cString: strerror(errno)))")
    }
}
