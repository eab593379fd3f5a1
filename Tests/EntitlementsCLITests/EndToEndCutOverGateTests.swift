import Foundation
import Testing

@testable import entitlements

/// What a first hour with the tool showed (issue #17): an empty export passing the cut-over gate, a
/// pasted document echoed whole in an error, near-miss names with no suggestion, a folder of stories refused.
@Suite("entitlements: the cut-over gate and the first hour", .timeLimit(.minutes(5)))
struct EndToEndCutOverGateTests {
    typealias Tool = EntitlementsTool

    static let instant = "2025-06-15T00:00:00Z"

    @Test func twoEmptyExportsAreNotParity() async throws {
        let (file, directory) = try Tool.temporaryFile(named: "empty.jsonl", contents: "")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["parity", "--at", Self.instant, file.path, file.path])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["parity: no customers compared"])
        let json = try await Tool.run(["parity", "--json", "--at", Self.instant, file.path, file.path])
        #expect(json.status == 1, "--json answers the same")
    }

    @Test func exportsWithNoCustomerInCommonAreNotParity() async throws {
        // Each export holds one customer without access, the other's customer is missing: nothing compared.
        let revenueCat = try Tool.repositoryFile(Tool.crossProvider("customers.revenuecat.jsonl"))
            .split(separator: "\n").map(String.init)
        let qonversion = try Tool.repositoryFile(Tool.crossProvider("customers.qonversion.jsonl"))
            .split(separator: "\n").map(String.init)
        let (a, directoryA) = try Tool.temporaryFile(named: "a.jsonl", contents: revenueCat[0] + "\n")
        defer { try? FileManager.default.removeItem(at: directoryA) }
        let (b, directoryB) = try Tool.temporaryFile(named: "b.jsonl", contents: qonversion[1] + "\n")
        defer { try? FileManager.default.removeItem(at: directoryB) }
        let result = try await Tool.run(["parity", "--at", Self.instant, a.path, b.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("matched                  0"))
        #expect(result.stderrLines.contains("parity: no customers compared"))
    }

    @Test func theBundledExportsStillReachParityWhereTheyAgree() async throws {
        // The gate is no harder than before when customers were compared: the same export on both sides.
        let export = Tool.crossProvider("customers.revenuecat.jsonl")
        let result = try await Tool.run(["parity", "--at", Self.instant, export, export])
        #expect(result.status == 0)
        #expect(!result.stderrLines.contains("parity: no customers compared"))
    }

    @Test func anEmptyMigrationInputIsBadData() async throws {
        let (file, directory) = try Tool.temporaryFile(named: "nothing.jsonl", contents: "")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["migrate", file.path])
        #expect(result.status == 65)
        #expect(result.stderrLines.last == "error: \(file.path): no records")
    }

    @Test func aHugeArgumentIsCutInTheError() async throws {
        let huge = String(repeating: "a", count: 100_000)
        for arguments in [["check", "--at", huge, "x.json"], [huge], ["convert", "--from", huge, "x.json"]] {
            let result = try await Tool.run(arguments)
            #expect(result.status == 64)
            let first = try #require(result.stderrLines.first)
            #expect(first.count < 200, "the error quotes \(first.count) characters")
            #expect(first.contains("…"), "the cut is marked")
        }
    }

    @Test func nearMissNamesGetASuggestion() async throws {
        let command = try await Tool.run(["validate", "alice"])
        #expect(command.status == 64)
        #expect(command.stderrLines.first == "error: unknown command 'validate'; did you mean 'validate-user-id'?")

        let provider = try await Tool.run(["convert", "--from", "revenucat", "Fixtures/revenuecat/active-monthly.json"])
        #expect(provider.status == 64)
        #expect(provider.stderrLines.first?.hasSuffix("; did you mean 'revenuecat'?") == true)

        let scenario = try await Tool.run(["scenario", "--provider", "qonversoin", "Fixtures/scenarios"])
        #expect(scenario.status == 64)
        #expect(scenario.stderrLines.first?.hasSuffix("; did you mean 'qonversion'?") == true)
    }

    @Test func aFolderOfStoriesRunsEveryStoryInIt() async throws {
        let folder = Tool.packageRoot.appendingPathComponent("Fixtures/scenarios")
        let stories = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(stories.count > 3)
        let result = try await Tool.run(["scenario", "--provider", "revenuecat", "Fixtures/scenarios"])
        #expect(result.status == 0, "\(result.stderr)")
        let ran = Set(
            result.stdout.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        #expect(ran == Set(stories.map { "Fixtures/scenarios/" + $0 }))
    }

    @Test func spellingSuggestsTheOneCommandAWordStarts() {
        let commands = ["convert", "check", "diff", "migrate", "parity", "validate-user-id", "fetch", "scenario"]
        #expect(Spelling.suggestion(for: "validate", among: commands) == "validate-user-id")
        #expect(Spelling.suggestion(for: "scen", among: commands) == "scenario")
        #expect(Spelling.suggestion(for: "c", among: commands) == nil, "too short to say which")
        #expect(Spelling.suggestion(for: "--expiry", among: ["--expiry-tolerance", "--at"]) == "--expiry-tolerance")
        #expect(Spelling.suggestion(for: String(repeating: "c", count: 10_000), among: commands) == nil)
    }

    @Test func quotingCutsAndKeepsOneLine() {
        #expect(ArgumentQuoting.json("next tuesday") == #""next tuesday""#)
        #expect(ArgumentQuoting.json(String(repeating: "x", count: 500)).count == 60)
        #expect(ArgumentQuoting.plain("a\nb") == "'a?b'")
        #expect(ArgumentQuoting.plain(String(repeating: "y", count: 61)).hasSuffix("…"))
    }
}
