import EntitlementKit
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// `DirectoryLedgerStore` under real processes (`ledger-writer-for-tests`): a writer killed anywhere —
/// at random, or at each stage of a commit's append to the log — never leaves an input half-applied, and another process
/// (this one) goes on from what it left.
@Suite("A ledger writer killed mid-commit", .timeLimit(.minutes(5)))
struct DirectoryStoreCrashTests {
    static func scratchDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("LedgerCrash-" + UUID().uuidString)
    }

    /// The helper's input N: the anonymous id N logged in to `user-N`.
    static func anonymousId(_ number: Int) -> String {
        let digits = String(number, radix: 16)
        return "$RCAnonymousID:" + String(repeating: "0", count: 32 - digits.count) + digits
    }

    /// Every customer the directory holds, each checked to be one whole input: `[anonymous N, user-N]`,
    /// each id resolving to it. Returns the inputs' numbers.
    static func wholeInputs(in directory: URL) async throws -> [Int] {
        let ledger = EntitlementLedger(sources: [], store: try DirectoryLedgerStore(directory: directory))
        var numbers: [Int] = []
        for ids in try await ledger.customers() {
            let number = numbers.count + 1
            #expect(ids == [anonymousId(number), "user-\(number)"], "customer \(number) is one whole input")
            for id in ids {
                #expect(try await ledger.snapshot(for: id, at: .distantPast).originalAppUserId == ids.first)
            }
            numbers.append(number)
        }
        return numbers
    }

    @Test func aWriterKilledAtRandomLeavesWholeInputsAndTheDirectoryWritable() async throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let said = try await offThePool { () throws -> [String] in
            let writer = try HelperProcess("ledger-writer-for-tests", [directory.path])
            var lines: [String] = []
            // Let it apply a few inputs, then kill it wherever it is.
            while lines.count < 12, let line = writer.nextLine() { lines.append(line) }
            writer.kill()
            return lines
        }
        #expect(said.last == "applied 12")
        let numbers = try await Self.wholeInputs(in: directory)
        #expect(numbers.count >= 12, "every input it said it applied is there")
        // The killed writer held the lock on disk at times; the kernel released it with the process.
        let ledger = EntitlementLedger(sources: [], store: try DirectoryLedgerStore(directory: directory))
        let next = numbers.count + 1
        _ = try await ledger.logIn(from: Self.anonymousId(next), to: "user-\(next)")
        #expect(try await Self.wholeInputs(in: directory).count == next)
    }

    @Test(
        "a writer killed at each stage of input 3's commit leaves inputs 1 and 2, or all three",
        arguments: ["partlyAppended", "appended", "synced"])
    func killedAtStage(stage: String) async throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let said = try await offThePool { () throws -> [String] in
            let writer = try HelperProcess("ledger-writer-for-tests", [directory.path, "die-at", stage, "3"])
            var lines: [String] = []
            while let line = writer.nextLine() { lines.append(line) }
            writer.kill()
            return lines
        }
        #expect(said == ["applied 1", "applied 2"], "it died inside input 3")
        // Before its record is whole in the log nothing of input 3 counts; from then on all of it does.
        let expected = stage == "partlyAppended" ? [1, 2] : [1, 2, 3]
        #expect(try await Self.wholeInputs(in: directory) == expected)
        // The next writer cuts off the unfinished record (appending after it would make the log unreadable).
        let ledger = EntitlementLedger(sources: [], store: try DirectoryLedgerStore(directory: directory))
        let next = expected.count + 1
        _ = try await ledger.logIn(from: Self.anonymousId(next), to: "user-\(next)")
        #expect(try await Self.wholeInputs(in: directory) == expected + [next])
    }

    /// The helper's lines until it ends (it kills itself at a stage), then makes sure it is gone.
    static func linesUntilItDies(_ arguments: [String]) async throws -> [String] {
        try await offThePool { () throws -> [String] in
            let writer = try HelperProcess("ledger-writer-for-tests", arguments)
            var lines: [String] = []
            while let line = writer.nextLine() { lines.append(line) }
            writer.kill()
            return lines
        }
    }

    /// The names in `directory` that are not the lock file.
    static func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != ".lock" }.sorted()
    }

    @Test(
        "a writer killed in a compaction, its new log partly written or just renamed over the old, loses no input",
        arguments: ["partlyWritten", "renamed"])
    func killedInACompaction(stage: String) async throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let said = try await Self.linesUntilItDies([directory.path, "compacting", "die-at", stage, "6"])
        let applied = said.count
        #expect(applied >= 5 && said == (0..<applied).map { "applied \($0 + 1)" }, "it died in a compaction")
        if stage == "partlyWritten" {
            #expect(try Self.names(in: directory).contains { $0.hasPrefix(".tmp-") }, "the new log left unfinished")
        }
        // The compaction ran inside input N's commit (after its record was appended) or inside the padding
        // commit after it: every input it said it applied is there, and at most the one it was committing.
        let numbers = try await Self.wholeInputs(in: directory)
        #expect(numbers == Array(1...applied) || numbers == Array(1...(applied + 1)))
        let ledger = EntitlementLedger(sources: [], store: try DirectoryLedgerStore(directory: directory))
        #expect(try Self.names(in: directory) == ["ledger.log"], "the unfinished new log is removed")
        let next = numbers.count + 1
        _ = try await ledger.logIn(from: Self.anonymousId(next), to: "user-\(next)")
        #expect(try await Self.wholeInputs(in: directory) == numbers + [next])
    }

    @Test(
        "a writer killed converting a folder of the first layout, before or after its log is in place, loses nothing",
        arguments: ["partlyWritten", "renamed"])
    func killedConvertingTheFirstLayout(stage: String) async throws {
        let directory = try LegacyStateTests.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folders = try Self.names(in: directory)
        // Input 0: the store's opening, where the folders are converted into a log.
        #expect(try await Self.linesUntilItDies([directory.path, "die-at", stage, "0"]).isEmpty)
        let left = try Self.names(in: directory)
        #expect(
            left.filter { !$0.hasPrefix(".tmp-") }
                == (stage == "renamed" ? (folders + ["ledger.log"]).sorted() : folders))
        try await LegacyStateTests().expectTheStory(try LegacyStateTests.ledger(directory))
        #expect(try Self.names(in: directory) == ["ledger.log"])
    }

    @Test func aBatchedWriterKilledBeforeAnySyncLeavesEveryInputItApplied() async throws {
        let directory = Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let said = try await offThePool { () throws -> [String] in
            let writer = try HelperProcess(
                "ledger-writer-for-tests", [directory.path, "batched", "die-at", "appended", "5"])
            var lines: [String] = []
            while let line = writer.nextLine() { lines.append(line) }
            writer.kill()
            return lines
        }
        #expect(said == ["applied 1", "applied 2", "applied 3", "applied 4"], "it died inside input 5")
        // Nothing was synced (a batch is 256 commits); the system still holds what the process wrote.
        #expect(try await Self.wholeInputs(in: directory) == [1, 2, 3, 4, 5])
    }
}
