import EntitlementKit
import EntitlementKitLedger
import EntitlementKitMigration
import Foundation
import TestSupport
import Testing

@testable import entitlements

/// `ledger replay --state` and `ledger backfill` sync their batched commits before they return (cli.md: a power
/// cut after the command's exit loses nothing), whether the run succeeded or refused some inputs. A power cut
/// cannot be staged in a test, so the commands run in this process and the state store tells each stage of its
/// commits: the last stage must be a sync, after every append.
@Suite("ledger commands sync their --state before returning", .timeLimit(.minutes(2)))
struct LedgerStateSyncTests {
    typealias Scratch = EndToEndLedgerImportTests.Scratch

    /// The stages a run's store reported, in order.
    final class Stages: @unchecked Sendable {
        private let lock = NSLock()
        private var stages: [LedgerCommitStage] = []

        func record(_ stage: LedgerCommitStage) { lock.withLock { stages.append(stage) } }
        var all: [LedgerCommitStage] { lock.withLock { stages } }
    }

    /// Runs `arguments` in this process, output discarded, on a thread of its own (the command waits for its
    /// async work, which must not hold the test pool's threads); its exit status and its store's commit stages.
    static func run(_ arguments: [String]) async throws -> (status: Int32, stages: [LedgerCommitStage]) {
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(devNull >= 0)
        return await offThePool { () -> (status: Int32, stages: [LedgerCommitStage]) in
            let stages = Stages()
            let context = CommandContext(
                decoder: SnapshotDecoder(adapters: builtInAdapters), clock: SystemClock(),
                output: OutputStream(descriptor: devNull, closesDescriptor: true),
                ledgerCommitObserver: { stages.record($0) })
            let status = entitlements.Tool.run(arguments, context: context)
            return (status.rawValue, stages.all)
        }
    }

    /// Checks that `stages` holds `appends` commits, fewer than a batch, and ends in the one sync the command
    /// made before returning.
    static func expectSyncedAtTheEnd(_ stages: [LedgerCommitStage], appends: Int) {
        #expect(stages.filter { $0 == .appended }.count == appends, "\(stages)")
        #expect(stages.filter { $0 == .synced }.count == 1, "one sync, at the end, for fewer commits than a batch")
        #expect(stages.last == .synced, "the last stage is the command's sync: \(stages)")
    }

    /// A log whose second line logs abe in, or is no ledger input at all (refused: the run ends 65).
    static func log(refusingTheSecondLine: Bool) -> String {
        [
            #"{"logIn": {"from": "\#(EndToEndLedgerImportTests.anonymousA)", "to": "zoe"}}"#,
            refusingTheSecondLine
                ? #"{"no such input": true}"#
                : #"{"logIn": {"from": "\#(EndToEndLedgerImportTests.anonymousC)", "to": "abe"}}"#,
        ].joined(separator: "\n") + "\n"
    }

    @Test(
        "replay --state: every commit synced before the command returns, also when a line is refused",
        arguments: [false, true])
    func replaySyncsBeforeReturning(refusingTheSecondLine: Bool) async throws {
        let scratch = try Scratch()
        let log = try scratch.write("log.jsonl", Self.log(refusingTheSecondLine: refusingTheSecondLine))
        let state = scratch.url.appendingPathComponent("state").path
        let run = try await Self.run(["ledger", "replay", "--state", state, "--at", "2025-06-01T00:00:00Z", log])
        #expect(run.status == (refusingTheSecondLine ? 65 : 0))
        Self.expectSyncedAtTheEnd(run.stages, appends: refusingTheSecondLine ? 1 : 2)
    }

    @Test("backfill: every commit synced before the command returns")
    func backfillSyncsBeforeReturning() async throws {
        let scratch = try Scratch()
        let (plan, documents) = try EndToEndLedgerImportTests.backfillInputs(scratch)
        let state = scratch.url.appendingPathComponent("state").path
        let run = try await Self.run([
            "ledger", "backfill", "--plan", plan, "--documents", documents, "--state", state, "--at",
            EndToEndLedgerImportTests.at,
        ])
        #expect(run.status == 0)
        #expect(run.stages.contains(.appended), "the backfill committed: \(run.stages)")
        #expect(run.stages.filter { $0 == .synced }.count == 1, "one sync, at the end, for fewer commits than a batch")
        #expect(run.stages.last == .synced, "the last stage is the command's sync: \(run.stages)")
    }
}
