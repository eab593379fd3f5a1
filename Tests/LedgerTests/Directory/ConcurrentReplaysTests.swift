import EntitlementKit
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// Several processes writing one `--state` at once lose nothing: four `entitlements ledger replay`
/// processes, started together on one directory, each create their own customers; every one of them is
/// there afterwards, whole. (A writer that committed without checking that what it read is still current
/// would hand two customers one number, and one would overwrite the other.)
@Suite("Four replays writing one --state at once", .timeLimit(.minutes(5)))
struct ConcurrentReplaysTests {
    static let processes = 4
    static let inputsEach = 40

    static func anonymousId(process: Int, input: Int) -> String {
        let digits = String(process * 10_000 + input, radix: 16)
        return "$RCAnonymousID:" + String(repeating: "0", count: 32 - digits.count) + digits
    }

    @Test func fourProcessesWritingOneStateLoseNothing() async throws {
        let scratch = try ReplayCommandTests.Scratch()
        let state = scratch.path("state")
        var logs: [String] = []
        for process in 0..<Self.processes {
            let lines = (1...Self.inputsEach).map { input in
                JSONValue.object([
                    "logIn": .object([
                        "from": .string(Self.anonymousId(process: process, input: input)),
                        "to": .string("p\(process)-u\(input)"),
                    ])
                ]).compactText
            }
            let log = scratch.path("log-\(process).jsonl")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
            logs.append(log)
        }
        let executable = try BuiltExecutable.url(named: "entitlements")
        let allLogs = logs
        let statuses = try await offThePool { () throws -> [Int32] in
            // All four started before any is waited for, so their transactions interleave.
            let running = try allLogs.map { log in
                let process = Process()
                process.executableURL = executable
                process.arguments = ["ledger", "replay", "--state", state, "--at", "2025-01-01T00:00:00Z", log]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            return running.map { process in
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
        #expect(statuses == Array(repeating: 0, count: Self.processes))
        let ledger = EntitlementLedger(
            sources: [], store: try DirectoryLedgerStore(directory: URL(fileURLWithPath: state)))
        let customers = try await ledger.customers()
        #expect(customers.count == Self.processes * Self.inputsEach, "no customer was lost")
        var expected: Set<[String]> = []
        for process in 0..<Self.processes {
            for input in 1...Self.inputsEach {
                expected.insert([Self.anonymousId(process: process, input: input), "p\(process)-u\(input)"])
            }
        }
        #expect(Set(customers) == expected, "each customer is one whole logIn")
        for ids in customers.prefix(8) {
            for id in ids { #expect(try await ledger.snapshot(for: id, at: .distantPast).originalAppUserId == ids[0]) }
        }
    }
}
