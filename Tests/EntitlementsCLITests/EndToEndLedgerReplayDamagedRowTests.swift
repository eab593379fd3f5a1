import EntitlementKit
import Foundation
import Testing

/// `entitlements ledger replay --state DIR` over a folder with one row damaged on disk: the customer it
/// belongs to gets no snapshot line but an error naming it and the row, every other customer is printed,
/// the new lines are applied, and the exit status is 65.
@Suite("entitlements ledger replay over a damaged row", .timeLimit(.minutes(5)))
struct EndToEndLedgerReplayDamagedRowTests {
    typealias Tool = EntitlementsTool
    typealias Streaming = EndToEndLedgerReplayStreamingTests

    /// The row file of `table` whose key (the row's second line, a JSON string) is `key`.
    static func rowFile(_ state: URL, _ table: String, key: String) throws -> URL {
        let folder = state.appendingPathComponent(table)
        let wanted = Data((JSONValue.string(key).compactText + "\n").utf8)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            let file = folder.appendingPathComponent(name)
            let bytes = try Data(contentsOf: file)
            guard let firstBreak = bytes.firstIndex(of: UInt8(ascii: "\n")) else { continue }
            if bytes[(firstBreak + 1)...].starts(with: wanted) { return file }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    @Test("the damaged customer is named with its row and left out; the others print; exit 65")
    func damagedCustomerNamedOthersPrinted() async throws {
        let scratch = try Streaming.Scratch()
        let state = scratch.url.appendingPathComponent("state")
        let first = scratch.path("first.jsonl")
        try Data(((1...3).map { Streaming.logIn($0) }.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: first))
        let before = try await Tool.run(["ledger", "replay", "--state", state.path, first])
        #expect(before.status == 0, "\(before.stderr)")

        // Flip the bits of the last byte of user2's id row, as a disk's error would.
        let file = try Self.rowFile(state, "appUserIds", key: "user2")
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: file)

        let second = scratch.path("second.jsonl")
        try Data((Streaming.logIn(4) + "\n").utf8).write(to: URL(fileURLWithPath: second))
        let outcomes = scratch.path("outcomes.jsonl")
        let after = try await Tool.run(["ledger", "replay", "--state", state.path, "--outcomes", outcomes, second])
        #expect(after.status == 65)
        #expect(try Streaming.outcomes(outcomes).map(\.outcome) == ["applied"])
        let printed = try after.stdout.split(separator: "\n").map { try JSONValue.parse(String($0))["appUserId"] }
        #expect(printed == ["user1", "user3", "user4"].map(JSONValue.string))
        #expect(after.stderrLines.count == 1)
        let line = try #require(after.stderrLines.first)
        #expect(line.hasPrefix(#"error: customer "user2" cannot be read: damaged: "#), "\(line)")
        #expect(line.contains("appUserIds/user2"), "\(line)")
    }
}
