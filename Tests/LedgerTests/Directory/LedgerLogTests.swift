import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// The log of a `DirectoryLedgerStore`: two stores on one directory (as two processes: each its own file
/// and index) see each other's commits and never lose one, a compaction is seen by the other, an
/// unfinished record at the end is ignored then cut off, damage to a record's frame refuses the log
/// rather than dropping what follows, and a log beside the folders of a cut-short conversion wins.
@Suite("The log of a directory ledger", .timeLimit(.minutes(2)))
struct LedgerLogTests {
    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("LedgerLog-" + UUID().uuidString)
    }

    static func read(_ store: DirectoryLedgerStore, _ key: String) async throws -> Data? {
        try await store.transaction { transaction throws(LedgerRefusal) in
            try await transaction.value(in: .counters, key: key)
        }
    }

    static func write(_ store: DirectoryLedgerStore, _ key: String, _ value: Data?) async throws {
        try await store.transaction { transaction throws(LedgerRefusal) in
            try await transaction.setValue(value, in: .counters, key: key)
        }
    }

    /// Adds one to the counter `key` (a byte), running `between` after the read, before the commit.
    static func increment(
        _ store: DirectoryLedgerStore, _ key: String,
        between: @escaping @Sendable () async throws(LedgerRefusal) -> Void
    ) async throws(LedgerRefusal) {
        try await store.transaction { transaction throws(LedgerRefusal) in
            let count = try await transaction.value(in: .counters, key: key)?.first ?? 0
            try await between()
            try await transaction.setValue(Data([count + 1]), in: .counters, key: key)
        }
    }

    @Test func aCommitOverARowAnotherProcessChangedSinceItReadItRunsAgain() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DirectoryLedgerStore(directory: directory)
        let second = try DirectoryLedgerStore(directory: directory)
        let runs = TransactionRuns()
        try await Self.increment(first, "n") { () throws(LedgerRefusal) in
            // The other store increments the counter between this transaction's read and its commit, once.
            if await runs.next() == 1 { try await Self.increment(second, "n") { () throws(LedgerRefusal) in } }
        }
        #expect(await runs.value == 2, "the transaction ran again")
        #expect(try await Self.read(first, "n") == Data([2]), "neither increment is lost")
        #expect(try await Self.read(second, "n") == Data([2]))
    }

    @Test func aCompactedLogKeepsTheCurrentRowsAndTheOtherStoreFollows() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let compacting = try DirectoryLedgerStore(
            directory: directory, commitStageObserver: nil, writeStageObserver: nil, compactionMinimumSize: 4_096)
        let other = try DirectoryLedgerStore(directory: directory)
        try await Self.write(other, "kept", Data("kept".utf8))
        try await Self.write(other, "removed", Data("gone".utf8))
        try await Self.write(other, "removed", nil)
        for round in 0..<200 {
            try await Self.write(compacting, "rewritten", Data(repeating: UInt8(round), count: 100))
        }
        let sizes = try await compacting.logSizes()
        #expect(sizes.file < 8_192, "the log was compacted (\(sizes.file) bytes)")
        #expect(try await Self.read(other, "rewritten") == Data(repeating: 199, count: 100))
        #expect(try await Self.read(other, "kept") == Data("kept".utf8))
        #expect(try await Self.read(other, "removed") == nil)
        try await Self.write(other, "after", Data("after".utf8))
        #expect(try await Self.read(compacting, "after") == Data("after".utf8))
        #expect(try await Self.read(try DirectoryLedgerStore(directory: directory), "kept") == Data("kept".utf8))
    }

    @Test func anUnfinishedRecordAtTheEndIsIgnoredThenCutOff() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = Data(repeating: 1, count: 2_000)
        try await Self.write(try DirectoryLedgerStore(directory: directory), "a", one)
        let file = directory.appendingPathComponent("ledger.log")
        let whole = try Data(contentsOf: file)
        // The first half of a copy of the last record: a writer killed mid-append (longer than the next
        // record, so writing over it would leave some of it behind).
        let record = whole.suffix(from: 8)
        try (whole + record.prefix(record.count / 2)).write(to: file)

        let store = try DirectoryLedgerStore(directory: directory)
        #expect(try await Self.read(store, "a") == one)
        try await Self.write(store, "b", Data("two".utf8))
        let again = try DirectoryLedgerStore(directory: directory)
        #expect(try await Self.read(again, "a") == one)
        #expect(try await Self.read(again, "b") == Data("two".utf8))
    }

    @Test func zerosAtTheEndAreCutOffButZerosBeforeARecordAreDamage() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.write(try DirectoryLedgerStore(directory: directory), "a", Data("one".utf8))
        let file = directory.appendingPathComponent("ledger.log")
        let whole = try Data(contentsOf: file)
        // What a power cut may leave after the last synced record: zeros.
        try (whole + Data(count: 4_096)).write(to: file)
        let store = try DirectoryLedgerStore(directory: directory)
        try await Self.write(store, "b", Data("two".utf8))
        #expect(try await Self.read(try DirectoryLedgerStore(directory: directory), "b") == Data("two".utf8))

        // Zeros with a record after them are no tail.
        let now = try Data(contentsOf: file)
        try (whole + Data(count: 64) + now.suffix(from: whole.count)).write(to: file)
        let refusal = #expect(throws: LedgerRefusal.self) { try DirectoryLedgerStore(directory: directory) }
        #expect(refusal?.message.contains("zeros where a record should start") == true)
    }

    @Test func damageToARecordsFrameRefusesTheLogInsteadOfDroppingWhatFollows() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DirectoryLedgerStore(directory: directory)
        try await Self.write(store, "a", Data("one".utf8))
        try await Self.write(store, "b", Data("two".utf8))
        let file = directory.appendingPathComponent("ledger.log")
        var bytes = try Data(contentsOf: file)
        bytes[8 + 4] ^= 0x01  // the first record's body length
        try bytes.write(to: file)
        let refusal = #expect(throws: LedgerRefusal.self) { try DirectoryLedgerStore(directory: directory) }
        #expect(refusal?.kind == .storage)
        #expect(refusal?.message.contains("damaged at byte 8") == true, "\(refusal?.message ?? "")")
    }

    @Test func aLogBesideFoldersOfTheEarlierLayoutWins() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.write(try DirectoryLedgerStore(directory: directory), "a", Data("log".utf8))
        // What a conversion killed after its log was renamed into place, before the folders went, leaves.
        let folder = directory.appendingPathComponent("counters")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not read".utf8).write(to: folder.appendingPathComponent("row"))
        try Data("not read".utf8).write(to: directory.appendingPathComponent("journal"))

        let store = try DirectoryLedgerStore(directory: directory)
        #expect(try await Self.read(store, "a") == Data("log".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(names == ["ledger.log"])
    }

    /// CRC-32C bit by bit, as its definition reads: the reference the log's checksums are held to.
    static func referenceCRC32C(_ bytes: [UInt8], continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A log written byte by byte from the format's description (`LedgerLogFormat`), with checksums from
    /// the reference: a faster checksum that differs from CRC-32C, on any length, would make every log
    /// written before it unreadable.
    @Test func aLogWrittenToTheFormatsDescriptionIsReadAndItsAppendsFollowIt() async throws {
        #expect(Self.referenceCRC32C(Array("123456789".utf8)) == 0xE306_9283, "the reference is CRC-32C")
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // 203 bytes: whole 8-byte steps and a remainder.
        let value = (0..<203).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let key = Array("handwritten".utf8)
        var rowHead = Self.littleEndian(UInt32(key.count)) + Self.littleEndian(UInt32(value.count))
        rowHead += [9, 1] + Self.littleEndian(Self.referenceCRC32C(value))  // counters, a value
        let row = rowHead + Self.littleEndian(Self.referenceCRC32C(key, continuing: Self.referenceCRC32C(rowHead)))
        let body = row + key + value
        var head = Self.littleEndian(UInt32(0x4C47_5245)) + Self.littleEndian(UInt32(body.count))
        head += Self.littleEndian(UInt64(1)) + Self.littleEndian(UInt32(1))
        head += Self.littleEndian(Self.referenceCRC32C(head))
        try Data(Array("EKLEDGR1".utf8) + head + body).write(to: directory.appendingPathComponent("ledger.log"))

        let store = try DirectoryLedgerStore(directory: directory)
        #expect(try await Self.read(store, "handwritten") == Data(value))
        let appended = Array(value.reversed())
        try await Self.write(store, "appended", Data(appended))
        let file = try [UInt8](Data(contentsOf: directory.appendingPathComponent("ledger.log")))
        let appendedRow = file.count - appended.count - "appended".utf8.count - 18
        #expect(
            Array(file[(appendedRow + 10)..<(appendedRow + 14)]) == Self.littleEndian(Self.referenceCRC32C(appended)))
    }
}

/// Counts a transaction's runs.
actor TransactionRuns {
    private(set) var value = 0

    func next() -> Int {
        value += 1
        return value
    }
}
