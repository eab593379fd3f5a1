import EntitlementKit
import Foundation
import TestSupport
import Testing

/// `entitlements ledger replay` reading its log as it comes: a log of any size, a line over 16 MiB
/// refused unread while the lines around it apply, each outcome written before the next line is read.
@Suite("entitlements ledger replay streams its log", .timeLimit(.minutes(5)))
struct EndToEndLedgerReplayStreamingTests {
    typealias Tool = EntitlementsTool

    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-stream-" + UUID().uuidString)
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// A logIn of customer `index`'s anonymous id to `user<index>`, padded with `padding` spaces inside the
    /// object (whitespace the reader skips cheaply: a big log that stays quick to apply in a debug build).
    static func logIn(_ index: Int, padding: Int = 0) -> String {
        let anonymous = "$RCAnonymousID:" + String(format: "%032x", index)
        return #"{"logIn": {"from": "\#(anonymous)", "to": "user\#(index)"}"#
            + String(repeating: " ", count: padding) + "}"
    }

    /// The outcome lines of `path`, each as `(line, outcome)`.
    static func outcomes(_ path: String) throws -> [(line: Int64, outcome: String)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { text in
            let value = try JSONValue.parse(String(text))
            guard case .integer(let line)? = value["line"], case .string(let outcome)? = value["outcome"] else {
                throw Unexpected(text: String(text))
            }
            return (line, outcome)
        }
    }

    struct Unexpected: Error { var text: String }

    @Test("a 17 MiB line in the middle is refused with its number; the lines around it are applied in order")
    func overlongLineRefusedTheRestApplied() async throws {
        let scratch = try Scratch()
        let log = scratch.path("log.jsonl")
        let huge = #"{"logIn": {"from": "x", "to": ""# + String(repeating: "a", count: 17 << 20) + #""}}"#
        let lines = [Self.logIn(1), Self.logIn(2), huge, Self.logIn(3), "", Self.logIn(4)]
        // The last line has no line break after it.
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: log))
        let outcomes = scratch.path("outcomes.jsonl")
        let run = try await Tool.run(["ledger", "replay", "--outcomes", outcomes, log])
        #expect(run.status == 65, "\(run.stderr)")
        let written = try Self.outcomes(outcomes)
        #expect(written.map(\.line) == [1, 2, 3, 4, 6])
        #expect(written.map(\.outcome) == ["applied", "applied", "refused", "applied", "applied"])
        #expect(run.stderrLines.count == 1)
        #expect(run.stderrLines.first?.hasPrefix("error: line 3: malformedBody: the line is ") == true)
        #expect(run.stderrLines.first?.contains("over the 16 MiB limit") == true)
        let customers = try run.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(customers.compactMap { $0["appUserId"] } == ["user1", "user2", "user3", "user4"].map(JSONValue.string))
    }

    @Test("a log of 20 MiB in all, which the whole-file reading refused, replays in one command")
    func logLargerThanTheLineLimitReplays() async throws {
        let scratch = try Scratch()
        let log = scratch.path("log.jsonl")
        let count = 40
        let text = (1...count).map { Self.logIn($0, padding: 512 << 10) }.joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: log))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
        #expect(size > 16 << 20)
        let outcomes = scratch.path("outcomes.jsonl")
        let run = try await Tool.run(["ledger", "replay", "--outcomes", outcomes, log])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.outcomes(outcomes).map(\.line) == (1...count).map(Int64.init))
        #expect(run.stdout.split(separator: "\n").count == count)
    }

    @Test("each outcome is written before the next line is read (a pipe in, a FIFO out, one line at a time)")
    func outcomesWrittenAsLinesArrive() async throws {
        let scratch = try Scratch()
        let fifo = scratch.path("outcomes.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = try Tool.executable()
        process.arguments = ["ledger", "replay", "--outcomes", fifo, "-"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Opening the FIFO waits for the tool to open it for writing.
        let outcomes = try await offThePool { try FileHandle(forReadingFrom: URL(fileURLWithPath: fifo)) }
        for index in 1...3 {
            input.fileHandleForWriting.write(Data((Self.logIn(index) + "\n").utf8))
            // The tool holds the rest of its input back until this outcome is read: a tool that wrote its
            // outcomes at the end would never answer here (the suite's time limit ends the wait).
            let line = try await offThePool { () throws -> String in
                var bytes = Data()
                while let byte = try outcomes.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
                    bytes.append(byte)
                }
                return String(decoding: bytes, as: UTF8.self)
            }
            #expect(try JSONValue.parse(line)["line"] == .integer(Int64(index)))
        }
        try input.fileHandleForWriting.close()
        await Tool.exit(of: process)
        #expect(process.terminationStatus == 0)
    }
}
