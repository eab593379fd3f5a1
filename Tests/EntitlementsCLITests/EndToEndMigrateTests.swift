import EntitlementKit
import Foundation
import Testing

@Suite("entitlements migrate", .timeLimit(.minutes(5)))
struct EndToEndMigrateTests {
    typealias Tool = EntitlementsTool

    static let instant = "2025-06-15T00:00:00Z"

    /// The Qonversion export with three bad records and a blank line in the middle:
    /// line 3 has a date of the wrong type, line 6 is cut off, line 8 is blank, line 10 is no known format.
    static func exportWithBadLines() async throws -> (text: String, goodLines: [String]) {
        let good = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent(Tool.crossProvider("customers.qonversion.jsonl")),
            encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
        #expect(good.count == 8)
        let wrongType =
            #"{"appUserId": "oops", "response": {"success": true, "data": {"uid": "QON_1", "timestamp": 1749945600, "permissions": [{"id": "premium", "associated_product": "p", "active": 1, "renew_state": 1, "source": "appstore", "started_timestamp": 1740000000, "expiration_timestamp": "soon"}]}}}"#
        let lines = [
            good[0], good[1], wrongType, good[2], good[3], #"{"appUserId": "cut", "response": {"success": tr"#, good[4],
            "", good[5], "[1,2,3]", good[6], good[7],
        ]
        return (lines.joined(separator: "\n") + "\n", good)
    }

    func appUserIds(_ output: String) async throws -> [String] {
        try output.split(separator: "\n").map { line in
            let snapshot = try EntitlementSnapshot(json: Data(line.utf8))
            return snapshot.appUserId ?? "?"
        }
    }

    @Test(arguments: [1, 3])
    func badLinesInTheMiddleAreReportedSkippedAndSummarised(jobs: Int) async throws {
        let (text, good) = try await Self.exportWithBadLines()
        let (file, directory) = try Tool.temporaryFile(named: "export.jsonl", contents: text)
        defer { try? FileManager.default.removeItem(at: directory) }

        let result = try await Tool.run(["migrate", "--at", Self.instant, "--jobs", String(jobs), file.path])
        #expect(result.status == 65)
        // The good records, in input order, each exactly what `convert --compact` prints for it.
        #expect(
            try await appUserIds(result.stdout) == ["ivan", "heidi", "frank", "dave", "grace", "carol", "bob", "alice"])
        var expected = ""
        for record in good {
            let single = try await Tool.run(
                ["convert", "--compact", "--at", Self.instant, "-"], stdin: Data(record.utf8))
            #expect(single.status == 0)
            expected += single.stdout
        }
        #expect(result.stdout == expected)

        let errors = result.stderrLines
        #expect(errors.count == 4)
        #expect(
            errors[0].hasPrefix(
                #"error: \#(file.path): line 3: response.data.permissions[0].expiration_timestamp: "soon" "#))
        #expect(errors[1].hasPrefix("error: \(file.path): line 6: "))
        #expect(
            errors[2]
                == "error: \(file.path): line 10: $: [1,2,3] is not a document of any known format (revenuecat, qonversion, adapty, appstore, googleplay, stripe, unified)"
        )
        #expect(errors[3] == "migrate: 11 records: 8 converted, 3 failed")
    }

    @Test func outputGoesToTheNamedFileAndAFullyGoodExportExitsZero() async throws {
        let (_, directory) = try Tool.temporaryFile(named: "unused", contents: "")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("snapshots.jsonl")
        let toFile = try await Tool.run([
            "migrate", "--at", Self.instant, "--output", output.path, Tool.crossProvider("customers.qonversion.jsonl"),
        ])
        #expect(toFile.status == 0)
        #expect(toFile.stdout.isEmpty)
        #expect(toFile.stderrLines == ["migrate: 8 records: 8 converted, 0 failed"])

        let toStdout = try await Tool.run(
            ["migrate", "--at", Self.instant, "-"],
            stdin: try Data(
                contentsOf: Tool.packageRoot.appendingPathComponent(Tool.crossProvider("customers.qonversion.jsonl"))))
        #expect(toStdout.status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == toStdout.stdout)
    }

    @Test func aFormatNamedWithFromMustMatchEveryRecord() async throws {
        let result = try await Tool.run([
            "migrate", "--from", "unified", "--at", Self.instant, Tool.crossProvider("customers.qonversion.jsonl"),
        ])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        // Odd lines' envelopes leave the provider out, so their responses are read as unified snapshots.
        #expect(result.stderrLines.filter { $0.hasPrefix("error: ") }.count == 8)
        #expect(result.stderrLines.last == "migrate: 8 records: 0 converted, 8 failed")
    }

    @Test func anEmptyExportIsABadInputNotACleanMigration() async throws {
        // An export script that silently wrote nothing must not pass the cut-over gate (cli.md: 65, `no records`).
        let result = try await Tool.run(["migrate", "-"], stdin: Data("\n\n".utf8))
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["migrate: 0 records: 0 converted, 0 failed", "error: <stdin>: no records"])
    }

    @Test func aReaderThatStopsEarlyEndsTheRunQuietlyNotByASignal() async throws {
        let export = try Tool.repositoryFile(Tool.crossProvider("customers.qonversion.jsonl"))
        let (file, directory) = try Tool.temporaryFile(
            named: "big.jsonl", contents: String(repeating: export, count: 200))
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = try Tool.executable()
        process.arguments = ["migrate", "--at", Self.instant, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Like `| head -c 0`: the reader goes away before the first snapshot is written.
        try pipe.fileHandleForReading.close()
        await EntitlementsTool.exit(of: process)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
