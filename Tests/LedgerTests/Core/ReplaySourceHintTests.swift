import EntitlementKit
import Foundation
import Testing

/// A line of a store the replay was not configured for names the flag that configures it.
@Suite("entitlements ledger replay: the missing store option", .timeLimit(.minutes(5)))
struct ReplaySourceHintTests {
    @Test func aPlayLineWithoutPackageNameNamesTheFlag() async throws {
        let scratch = try ReplayCommandTests.Scratch()
        let data = Data(
            #"{"version": "1.0", "packageName": "com.acme.app", "testNotification": {"version": "1.0"}}"#.utf8)
        let push = JSONValue.object([
            "message": .object([
                "data": .string(data.base64EncodedString()), "messageId": .string("m-1"),
                "publishTime": .string("2025-09-15T12:00:00Z"),
            ]),
            "subscription": .string("projects/example/subscriptions/play"),
        ])
        let line = JSONValue.object([
            "notification": .object(["source": .string("googlePlay"), "body": .string(push.compactText)]),
            "receivedAt": .string("2025-09-15T12:00:00Z"),
        ])
        let log = scratch.path("log.jsonl")
        try Data((line.compactText + "\n").utf8).write(to: URL(fileURLWithPath: log))
        let without = try await ReplayCommandTests.run(["ledger", "replay", "--at", "2025-09-15T12:00:00Z", log])
        #expect(without.status == 65)
        #expect(without.error.contains("--package-name"), "\(without.error)")
        let with = try await ReplayCommandTests.run([
            "ledger", "replay", "--package-name", "com.acme.app", "--at", "2025-09-15T12:00:00Z", log,
        ])
        #expect(with.status == 0, "\(with.error)")
    }
}
