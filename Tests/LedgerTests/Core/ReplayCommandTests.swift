import EntitlementKit
import Foundation
import Testing

/// `entitlements ledger replay` as a user runs it: the log's lines, `--outcomes`, `--state` across two
/// runs, exit statuses 0 / 65 / 64.
@Suite("entitlements ledger replay", .timeLimit(.minutes(5)))
struct ReplayCommandTests {
    struct Run: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    static func run(_ arguments: [String], input: Data? = nil) async throws -> Run {
        try await offThePool {
            let process = Process()
            process.executableURL = try BuiltExecutable.url(named: "entitlements")
            process.arguments = arguments
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                error: String(decoding: err, as: UTF8.self))
        }
    }

    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("LedgerReplay-" + UUID().uuidString)
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// A log line for the signed notification `name`, received at `day`.
    static func notificationLine(_ name: String, day: String = "2025-06-01") throws -> String {
        JSONValue.object([
            "notification": .object([
                "source": .string("appStore"), "body": .string(try SignedNotifications.body(name)),
                "headers": .object(["content-type": .string("application/json")]),
            ]),
            "receivedAt": .string(day + "T00:00:00Z"),
        ]).compactText
    }

    static let story = [
        "subscribed", "renewed", "test", "autoRenewOff", "carolSubscribed", "renewed", "expired",
    ]

    func arguments(_ scratch: Scratch, log: String, extra: [String] = []) throws -> [String] {
        let root = scratch.path("root.der")
        try SignedNotifications.resource("ledger-root.der").write(to: URL(fileURLWithPath: root))
        let catalog = scratch.path("catalog.json")
        try Data(#"{"products": {"com.acme.trails.pro.monthly": {"entitlements": ["pro"]}}}"#.utf8)
            .write(to: URL(fileURLWithPath: catalog))
        return [
            "ledger", "replay", "--catalog", catalog, "--root-certificate", root, "--bundle-id", "com.acme.trails",
            "--at", "2025-02-15T00:00:00Z",
        ] + extra + [log]
    }

    @Test func aStoryReplaysToOneSnapshotPerCustomerWithOneOutcomePerLine() async throws {
        let scratch = try Scratch()
        let log = scratch.path("log.jsonl")
        let lines =
            try Self.story.map { try Self.notificationLine($0) } + [
                #"{"logIn": {"from": "$RCAnonymousID:0123456789abcdef0123456789abcdef", "to": "dora"}}"#,
                #"{"link": {"accountToken": "6F1C6F0E-5A9B-4A53-9A51-3C1F5A0D1E11", "appUserId": "alice"}}"#,
            ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
        let run = try await Self.run(try arguments(scratch, log: log, extra: ["--outcomes", scratch.path("o.jsonl")]))
        #expect(run.status == 0, "\(run.error)")
        let outcomes = try String(contentsOfFile: scratch.path("o.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(outcomes.count == 9)
        #expect(
            outcomes.map { $0["outcome"] }
                == [
                    "applied", "applied", "noChange", "applied", "unlinked", "duplicate", "applied", "applied",
                    "noChange",
                ].map(JSONValue.string))
        #expect(outcomes[0]["line"] == .integer(1))
        #expect(outcomes[0]["customers"] == .array([.string(AppStoreNotificationTests.alice)]))
        let snapshots = run.output.split(separator: "\n").map { try? EntitlementSnapshot(json: Data($0.utf8)) }
        // The customers, by the bytes of their first ids: the anonymous one, then the token's.
        #expect(
            snapshots.map { $0?.appUserId } == [
                "$RCAnonymousID:0123456789abcdef0123456789abcdef", AppStoreNotificationTests.alice,
            ])
        #expect(snapshots.last??.isActive("pro") == true)
        #expect(snapshots.last??.provider == ProviderID(rawValue: "ledger"))
    }

    @Test func twoHalvesWithStateGiveWhatOneReplayGives() async throws {
        let scratch = try Scratch()
        let lines = try Self.story.map { try Self.notificationLine($0) }
        for (name, part) in [("whole", lines[...]), ("first", lines[..<3]), ("second", lines[3...])] {
            try Data(part.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: scratch.path(name)))
        }
        let whole = try await Self.run(try arguments(scratch, log: scratch.path("whole")))
        let state = ["--state", scratch.path("state")]
        let first = try await Self.run(try arguments(scratch, log: scratch.path("first"), extra: state))
        let second = try await Self.run(try arguments(scratch, log: scratch.path("second"), extra: state))
        #expect([whole.status, first.status, second.status] == [0, 0, 0])
        #expect(second.output == whole.output)
        #expect(!whole.output.isEmpty)
    }

    @Test func aRefusedLineExits65AndTheRestIsApplied() async throws {
        let scratch = try Scratch()
        let log = scratch.path("log.jsonl")
        let lines = [try Self.notificationLine("forged"), "not json", try Self.notificationLine("subscribed")]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: log))
        let run = try await Self.run(try arguments(scratch, log: log, extra: ["--outcomes", scratch.path("o")]))
        #expect(run.status == 65)
        let outcomes = try String(contentsOfFile: scratch.path("o"), encoding: .utf8).split(separator: "\n")
            .map { try JSONValue.parse(String($0)) }
        #expect(outcomes.map { $0["outcome"] } == ["refused", "refused", "applied"].map(JSONValue.string))
        #expect(outcomes[0]["error"] != nil)
        #expect(run.output.contains(AppStoreNotificationTests.alice))
    }

    @Test func usageErrorsExit64() async throws {
        let scratch = try Scratch()
        #expect(try await Self.run(["ledger", "replay"]).status == 64)
        #expect(try await Self.run(["ledger", "rewind", scratch.path("x")]).status == 64)
        #expect(try await Self.run(["ledger", "replay", "--environment", "staging", scratch.path("x")]).status == 64)
        #expect(
            try await Self.run(["ledger", "replay", "--restore-behavior", "steal", scratch.path("x")]).status == 64)
    }
}
