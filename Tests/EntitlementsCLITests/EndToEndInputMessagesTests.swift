import Foundation
import Testing

@testable import entitlements

/// Issue #28's messages: an input that is not what a command reads is named for what it is, once.
@Suite("entitlements: inputs named for what they are", .timeLimit(.minutes(5)))
struct EndToEndInputMessagesTests {
    typealias Tool = EntitlementsTool

    static let at = ["--at", "2025-06-15T12:00:00Z"]
    static let root = ["--root-certificate", "Fixtures/appstore/signed/test-root.pem"]

    /// The first signed transaction of the bundled test chain's fixture.
    static func jws() throws -> String {
        let data = Data(try Tool.repositoryFile("Fixtures/appstore/signed/transactions.json").utf8)
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
        return try #require(list.first)
    }

    @Test func aBareJWSFileIsReadAsTheOneTransactionItIs() async throws {
        let jws = try Self.jws()
        let (bare, directory) = try Tool.temporaryFile(named: "transaction.jws", contents: jws + "\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrapped = directory.appendingPathComponent("wrapped.json")
        try Data(("[\"" + jws + "\"]").utf8).write(to: wrapped)

        let expected = try await Tool.run(["convert", "--from", "appstore"] + Self.root + Self.at + [wrapped.path])
        #expect(expected.status == 0, "\(expected.stderr)")
        for from in [["--from", "appstore"], []] {
            let result = try await Tool.run(["convert"] + from + Self.root + Self.at + [bare.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == expected.stdout)
            #expect(result.stdout.contains(#""verification": "verified""#))
        }
        let check = try await Tool.run(["check", "--from", "appstore"] + Self.root + Self.at + [bare.path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func aJWSGivenToAnotherFormatIsNamedAndPointedToAppStore() async throws {
        let (bare, directory) = try Tool.temporaryFile(named: "transaction.jws", contents: try Self.jws())
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["convert", "--from", "revenuecat"] + Self.at + [bare.path])
        #expect(result.status == 65)
        #expect(
            result.stderrLines == [
                "error: \(bare.path): not JSON: it looks like a JWS (a signed App Store transaction: three base64url parts separated by dots); a StoreKit transaction is read with --from appstore"
            ])
    }

    @Test(arguments: [
        ("customers.csv", "appUserId,entitlement,expires\nalice,premium,2025-07-01\n", "CSV (comma-separated values)"),
        ("export.tsv", "appUserId\tentitlement\nalice\tpremium\n", "tab-separated values"),
        ("page.html", "<!DOCTYPE html>\n<html><body>Sign in</body></html>\n", "HTML (an error page?)"),
        ("feed.xml", "<?xml version=\"1.0\"?>\n<feed/>\n", "XML"),
        ("notes.txt", "remember to export the customers\n", "plain text"),
        ("report.pdf", "%PDF-1.7\n", "a PDF file"),
    ])
    func aDocumentThatDoesNotStartLikeJSONIsNotJSON(name: String, contents: String, shape: String) async throws {
        let (file, directory) = try Tool.temporaryFile(named: name, contents: contents)
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in ["convert", "check"] {
            let result = try await Tool.run([command] + Self.at + [file.path])
            #expect(result.status == 65)
            #expect(result.stderrLines == ["error: \(file.path): not JSON: it looks like \(shape)"])
        }
        let diff = try await Tool.run(["diff"] + Self.at + [file.path, "Fixtures/revenuecat/active-monthly.json"])
        #expect(diff.status == 65)
        #expect(diff.stderrLines == ["error: \(file.path): not JSON: it looks like \(shape)"])
    }

    @Test func aDocumentThatStartsLikeJSONKeepsTheParsersLocatedError() async throws {
        let (file, directory) = try Tool.temporaryFile(named: "cut.json", contents: #"{"subscriber": {"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["convert"] + Self.at + [file.path])
        #expect(result.status == 65)
        #expect(result.stderrLines.first?.contains("not JSON") == false)
    }

    @Test func parityAndMigrateSayACSVExportIsNotJSONLines() async throws {
        let (csv, directory) = try Tool.temporaryFile(
            named: "customers.csv", contents: "appUserId,entitlement\nalice,premium\nbob,premium\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let message =
            "error: \(csv.path): not JSON Lines (no line of its start is a JSON document): it looks like CSV (comma-separated values)"
        let parity = try await Tool.run(["parity"] + Self.at + [csv.path, csv.path])
        #expect(parity.status == 1)
        #expect(parity.stdout.isEmpty, "no report of zero customers")
        #expect(parity.stderrLines == [message])
        let migrate = try await Tool.run(["migrate"] + Self.at + [csv.path])
        #expect(migrate.status == 65)
        #expect(migrate.stderrLines == [message])
    }

    @Test func aFirstBadLineBeforeGoodRecordsIsStillOneBadRecord() async throws {
        let good = try Tool.repositoryFile(Tool.crossProvider("customers.revenuecat.jsonl"))
        let (file, directory) = try Tool.temporaryFile(named: "export.jsonl", contents: "appUserId,response\n" + good)
        defer { try? FileManager.default.removeItem(at: directory) }
        let migrate = try await Tool.run(["migrate"] + Self.at + [file.path])
        #expect(migrate.status == 65)
        #expect(migrate.stderrLines.first?.hasPrefix("error: \(file.path): line 1: ") == true)
        #expect(!migrate.stdout.isEmpty, "the good records are still converted")
    }

    @Test func anOptionThatContainsTheTypedWordIsSuggested() async throws {
        let result = try await Tool.run(
            [
                "diff", "--tolerance", "60", "Fixtures/revenuecat/active-monthly.json",
                "Fixtures/revenuecat/active-monthly.json",
            ])
        #expect(result.status == 64)
        #expect(result.stderrLines.first?.hasSuffix("did you mean '--expiry-tolerance'?") == true)
        #expect(
            Spelling.hint(for: "--field", among: ["--ignore-field", "--json"]) == "; did you mean '--ignore-field'?")
        #expect(
            Spelling.hint(for: "--tolerance", among: ["--expiry-tolerance", "--webhook-tolerance"])
                == "; did you mean '--expiry-tolerance' or '--webhook-tolerance'?")
        #expect(Spelling.hint(for: "--toler", among: ["--expiry-tolerance"]) == "", "a whole part, not a piece of one")
    }
}
