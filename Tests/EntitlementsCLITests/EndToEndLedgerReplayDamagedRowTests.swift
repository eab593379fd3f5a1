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

    /// Where the last value of `key` in the table numbered `table` ends in a `--state` folder's log
    /// (`ledger.log`: an 8-byte mark, then records of a 24-byte head — its body's length at byte 4, its row
    /// count at 16 — and rows of an 18-byte head — key and value lengths, table number at 8 — key, value).
    static func valueEnd(_ log: Data, table: UInt8, key: String) throws -> Int {
        let bytes = [UInt8](log)
        func uint32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var found: Int?
        var record = 8
        while record + 24 <= bytes.count {
            var row = record + 24
            for _ in 0..<uint32(record + 16) {
                let (keyLength, valueLength) = (uint32(row), uint32(row + 4))
                let keyStart = row + 18
                if bytes[row + 8] == table, Array(bytes[keyStart..<(keyStart + keyLength)]) == Array(key.utf8) {
                    found = keyStart + keyLength + valueLength
                }
                row = keyStart + keyLength + valueLength
            }
            record += 24 + uint32(record + 4)
        }
        return try #require(found)
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

        // Flip the bits of the last byte of user2's id row (table 5, appUserIds), as a disk's error would.
        let file = state.appendingPathComponent("ledger.log")
        var bytes = try Data(contentsOf: file)
        bytes[try Self.valueEnd(bytes, table: 5, key: "user2") - 1] ^= 0xFF
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
