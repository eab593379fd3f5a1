import Foundation

/// The values of the rows a ``LedgerLog`` wrote or read lately, by where they are in the log: a commit
/// reads back what the previous ones wrote (a thread's head, a customer) without a `pread` and a checksum.
/// The log is append-only, so the bytes at a position never change while its file is the log; a
/// compaction makes a new file, and the cache is emptied with the index. Bounded: two generations of at
/// most `budget` bytes each; when the newer fills, the older is dropped (a value read from it moves to
/// the newer), so what is used keeps its place and memory stays flat.
struct LedgerValueCache {
    private var recent: [Int64: Data] = [:]
    private var older: [Int64: Data] = [:]
    private var recentBytes = 0
    private let budget: Int

    init(budget: Int = 4 << 20) {
        self.budget = budget
    }

    mutating func value(at offset: Int64) -> Data? {
        if let value = recent[offset] { return value }
        guard let value = older.removeValue(forKey: offset) else { return nil }
        insert(value, at: offset)
        return value
    }

    mutating func insert(_ value: Data, at offset: Int64) {
        // A value larger than a generation would evict everything for nothing: it is read from the file.
        guard value.count <= budget / 4 else { return }
        if recentBytes + value.count > budget {
            older = recent
            recent = [:]
            recentBytes = 0
        }
        recent[offset] = value
        recentBytes += value.count
    }

    mutating func removeAll() {
        recent = [:]
        older = [:]
        recentBytes = 0
    }
}
