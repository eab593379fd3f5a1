import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// A `DirectoryLedgerStore` syncing in batches: each commit is in the log for other stores (processes) at
/// once, before any sync; the log is synced every N-th commit and at `sync()`, and only then (a store
/// syncing every commit syncs each).
@Suite("A directory ledger syncing in batches", .timeLimit(.minutes(2)))
struct BatchedSyncTests {
    /// The `.synced` stages a store reported.
    final class Syncs: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func observe(_ stage: LedgerCommitStage) { if stage == .synced { lock.withLock { count += 1 } } }
    }

    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("LedgerBatch-" + UUID().uuidString)
    }

    @Test func aBatchedStoreSyncsEveryNthCommitAndWhenAskedAndOthersSeeEachCommitAtOnce() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let syncs = Syncs()
        let store = try DirectoryLedgerStore(
            directory: directory, syncing: .batched, commitsPerBatch: 3,
            commitStageObserver: { syncs.observe($0) }, writeStageObserver: nil)
        let reader = try DirectoryLedgerStore(directory: directory)
        var seen: [Int] = []
        for number in 1...7 {
            try await store.transaction { transaction throws(LedgerRefusal) in
                try await transaction.setValue(Data([UInt8(number)]), in: .counters, key: "n")
            }
            let value = try await reader.transaction { transaction throws(LedgerRefusal) in
                try await transaction.value(in: .counters, key: "n")
            }
            #expect(value == Data([UInt8(number)]), "commit \(number) is in the log for another store")
            seen.append(syncs.value)
        }
        #expect(seen == [0, 0, 1, 1, 1, 2, 2], "synced at the 3rd and the 6th commit only")
        try await store.sync()
        #expect(syncs.value == 3, "sync() syncs the 7th")
        try await store.sync()
        #expect(syncs.value == 3, "nothing left to sync")
    }

    @Test func aStoreSyncingEveryCommitSyncsEach() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let syncs = Syncs()
        let store = try DirectoryLedgerStore(
            directory: directory, commitStageObserver: { syncs.observe($0) }, writeStageObserver: nil)
        for number in 1...4 {
            try await store.transaction { transaction throws(LedgerRefusal) in
                try await transaction.setValue(Data([UInt8(number)]), in: .counters, key: "n")
            }
            #expect(syncs.value == number)
        }
        try await store.sync()
        #expect(syncs.value == 4)
    }
}
