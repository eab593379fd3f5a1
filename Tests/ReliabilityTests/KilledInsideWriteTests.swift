import EntitlementKit
import Foundation
import TestSupport
import Testing

/// A process killed inside the atomic write itself — with the temporary file half written, synced but
/// not renamed, renamed but the directory not synced — leaves the old file or the new one, and a
/// process killed while holding the lock on disk does not hold it any longer.
@Suite("A writer killed inside the atomic write", .timeLimit(.minutes(5)))
struct KilledInsideWriteTests {
    private struct Outcome: Sendable {
        let said: [String]
        let directory: URL
    }

    /// Runs the helper until it stops at `stage` of its `kind` write, then kills it.
    private func killInside(_ kind: String, at stage: CacheWriteStage, id: String) async throws -> Outcome {
        let directory = try CacheCrashSafetyTests.scratchDirectory()
        let said = try await offThePool { () throws -> [String] in
            let helper = try HelperProcess(
                "cache-writer-for-tests", ["stop-at", stage.rawValue, kind, directory.path, id])
            let lines = [helper.nextLine(), helper.nextLine()].compactMap { $0 }
            helper.kill()
            return lines
        }
        return Outcome(said: said, directory: directory)
    }

    @Test(
        "an entry write killed at each stage leaves entry 1 before the rename, entry 2 after",
        arguments: CacheWriteStage.allCases)
    func entryWrite(stage: CacheWriteStage) async throws {
        let id = "dave"
        let outcome = try await killInside("entry", at: stage, id: id)
        defer { try? FileManager.default.removeItem(at: outcome.directory) }
        #expect(outcome.said == ["stored 1", "at \(stage.rawValue)"])
        let reopened = try DirectoryEntitlementCache(directory: outcome.directory)
        let expected = stage == .renamed ? 2 : 1
        #expect(await reopened.entry(for: id) == CacheCrashSafetyTests.entry(expected, for: id))
        // The killed writer's temporary file is removed at the next opening: its process has ended.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: outcome.directory.path).filter {
            $0.hasPrefix(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }

    @Test(
        "a device-file write killed at each stage: the old id or the new, and the lock is free",
        arguments: CacheWriteStage.allCases)
    func deviceWrite(stage: CacheWriteStage) async throws {
        let outcome = try await killInside("device", at: stage, id: "erin")
        defer { try? FileManager.default.removeItem(at: outcome.directory) }
        #expect(outcome.said == ["stored 1", "at \(stage.rawValue)"])
        let reopened = try DirectoryEntitlementCache(directory: outcome.directory)
        #expect(await reopened.storedAppUserId() == (stage == .renamed ? "erin" : "before"))
        // The killed process held the lock on disk; the kernel released it with the process.
        try await reopened.storeAppUserId("after")
        #expect(await reopened.storedAppUserId() == "after")
    }
}
