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
