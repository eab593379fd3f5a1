import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// A replay log's line is read only as what it says: two forms, or a member beside the form and
/// `receivedAt` (at the top level or inside the form's object), is refused; `--outcomes` naming the log
/// itself is usage, and the log is kept.
@Suite("A replay log's lines, read strictly", .timeLimit(.minutes(3)))
struct ReplayLogStrictnessTests {
    static let logIn = #"{"logIn": {"from": "$RCAnonymousID:0123456789abcdef0123456789abcdef", "to": "alice"}}"#

    @Test(
        "a line with two forms or an unknown member is refused",
        arguments: [
            #"{"logIn": {"from": "a", "to": "b"}, "link": {"accountToken": "t", "appUserId": "b"}}"#,
            #"{"logIn": {"from": "a", "to": "b"}, "document": {"source": "plain", "body": {}}, "receivedAt": "2025-01-01T00:00:00Z"}"#,
            #"{"logIn": {"from": "a", "to": "b"}, "appUserId": "mallory"}"#,
            #"{"logIn": {"from": "a", "to": "b", "as": "mallory"}}"#,
            #"{"document": {"source": "plain", "body": {"records": []}, "appUserID": "mallory"}, "receivedAt": "2025-01-01T00:00:00Z"}"#,
            #"{"notification": {"source": "plain", "body": "{}", "header": {}}, "receivedAt": "2025-01-01T00:00:00Z"}"#,
            #"{"link": {"accountToken": "t", "appUserId": "b", "force": true}}"#,
            #"{"receivedAt": "2025-01-01T00:00:00Z"}"#,
        ])
    func refused(line: String) {
        do {
            let input = try LedgerInput(logLine: Data(line.utf8))
            Issue.record("\(line) was read as \(input)")
        } catch {
            #expect(error.kind == .malformedBody)
        }
    }

    @Test func everyFormWithItsOwnMembersIsRead() throws {
        let lines = [
            Self.logIn,
            #"{"logIn": {"from": "a", "to": "b"}, "receivedAt": "2025-01-01T00:00:00Z"}"#,
            #"{"link": {"stripeCustomer": "cus_1", "appUserId": "b"}}"#,
            #"{"document": {"source": "plain", "body": {}, "purchaseToken": "t", "appUserId": "b"}, "receivedAt": "2025-01-01T00:00:00Z"}"#,
            #"{"notification": {"source": "plain", "body": "{}", "headers": {}}, "receivedAt": "2025-01-01T00:00:00Z"}"#,
        ]
        for line in lines { _ = try LedgerInput(logLine: Data(line.utf8)) }
    }

    @Test func outcomesNamingTheLogIsUsageAndTheLogIsKept() async throws {
        let scratch = try ReplayCommandTests.Scratch()
        let log = scratch.path("log.jsonl")
        let bytes = Data((Self.logIn + "\n").utf8)
        try bytes.write(to: URL(fileURLWithPath: log))
        let link = scratch.path("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: log)
        let spellings = [log, scratch.url.appendingPathComponent("sub/../log.jsonl").path, link]
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for outcomes in spellings {
            let run = try await ReplayCommandTests.run(["ledger", "replay", "--outcomes", outcomes, log])
            #expect(run.status == 64, "--outcomes \(outcomes)")
            #expect(run.error.contains("LOG"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == bytes, "the log is kept")
        }
        // Another file is written as before.
        let run = try await ReplayCommandTests.run(["ledger", "replay", "--outcomes", scratch.path("o"), log])
        #expect(run.status == 0)
        #expect(try String(contentsOfFile: scratch.path("o"), encoding: .utf8).contains(#""outcome":"applied""#))
    }
}
