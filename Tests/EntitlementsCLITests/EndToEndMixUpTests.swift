import Foundation
import Testing

/// A file handed to the wrong command or named as the wrong format: one message that names the mistake
/// and what fits, instead of a message per line or the first member the wrong reader missed.
@Suite("entitlements: JSON vs JSON Lines, and one backend's file named as another's", .timeLimit(.minutes(5)))
struct EndToEndMixUpTests {
    typealias Tool = EntitlementsTool

    static let document = "Fixtures/revenuecat/active-monthly.json"
    static let export = Tool.crossProvider("customers.qonversion.jsonl")
    static let at = ["--at", "2025-06-15T00:00:00Z"]

    static func notJSONLines(_ name: String) -> String {
        "error: \(name): looks like a single JSON document, not JSON Lines (one document per line); use "
            + "'entitlements convert' or 'entitlements check' for one document"
    }

    static func notOneDocument(_ name: String) -> String {
        "error: \(name): looks like JSON Lines (one document per line), not a single JSON document; use "
            + "'entitlements migrate' or 'entitlements parity' for JSON Lines"
    }

    @Test func migrateOnAPrettyPrintedDocumentSaysSoOnce() async throws {
        let result = try await Tool.run(["migrate"] + Self.at + [Self.document])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [Self.notJSONLines(Self.document)])

        // From standard input too, and an --output file is not created for it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mixup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.jsonl").path
        let piped = try await Tool.run(
            ["migrate", "--output", output, "-"],
            stdin: try Data(contentsOf: Tool.packageRoot.appendingPathComponent(Self.document)))
        #expect(piped.status == 65)
        #expect(piped.stderrLines == [Self.notJSONLines("<stdin>")])
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func parityOnAPrettyPrintedDocumentSaysSoOnceAndIsNotProven() async throws {
        for (a, b, named) in [(Self.document, Self.export, Self.document), (Self.export, Self.document, Self.document)]
        {
            let result = try await Tool.run(["parity"] + Self.at + [a, b])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines == [Self.notJSONLines(named)])
        }
    }

    @Test(arguments: [["convert"], ["check"], ["diff", document]])
    func oneDocumentCommandsOnJSONLinesSaySoOnce(command: [String]) async throws {
        let result = try await Tool.run([command[0]] + Self.at + [Self.export] + command.dropFirst())
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [Self.notOneDocument(Self.export)])
    }

    @Test func aBrokenSingleDocumentIsStillReportedWhereItBreaks() async throws {
        // Two documents on one line are not JSON Lines: the syntax error stays.
        let result = try await Tool.run(["convert", "-"], stdin: Data(#"{"a": 1} {"a": 2}"#.utf8))
        #expect(result.status == 65)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.contains("after the end of the document") == true)
    }

    @Test func aQonversionFileNamedRevenueCatSaysWhatItLooksLike() async throws {
        let qonversion = "Fixtures/qonversion/active.json"
        let result = try await Tool.run(["check", "--from", "revenuecat", qonversion])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines == [
                "error: \(qonversion): $: looks like a Qonversion document, not revenuecat as requested; name qonversion, or let the format be detected"
            ])
        let reverse = try await Tool.run(["convert", "--from", "qonversion", Self.document])
        #expect(reverse.status == 65)
        #expect(
            reverse.stderrLines == [
                "error: \(Self.document): $: looks like a RevenueCat document, not qonversion as requested; name revenuecat, or let the format be detected"
            ])
    }

    @Test func aRevenueCatErrorBodyGetsTheSameMessageDetectedOrNamed() async throws {
        let body = "Fixtures/revenuecat/revenuecat-error-response.json"
        let message =
            #"error: \#(body): $: {"code":7225,"message":"Invalid API Key."} is a RevenueCat error response (code 7225: Invalid API Key.)"#
        for arguments in [["check", body], ["check", "--from", "revenuecat", body]] {
            let result = try await Tool.run(arguments)
            #expect(result.status == 65)
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines == [message])
        }
    }

    @Test func aFailedQonversionRequestReadsAsASentence() async throws {
        let result = try await Tool.run(["check", "Fixtures/qonversion/success-false.json"])
        #expect(result.status == 65)
        #expect(
            result.stderrLines == [
                "error: Fixtures/qonversion/success-false.json: success: false means the request failed: Access token is invalid or not set"
            ])
    }
}
