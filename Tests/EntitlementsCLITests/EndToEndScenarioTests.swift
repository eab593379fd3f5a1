import Foundation
import Testing

@Suite("entitlements scenario: stories through the runtime client, exit 0 / 1 / 65 / 66", .timeLimit(.minutes(5)))
struct EndToEndScenarioTests {
    typealias Tool = EntitlementsTool

    static let story = "Fixtures/scenarios/login-anonymous-to-new-id.json"

    /// Writes `text` to a scratch file and returns its path.
    static func scratch(_ name: String, _ text: String) async throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func everyBundledStoryPassesForEveryProvider() async throws {
        let directory = Tool.packageRoot.appendingPathComponent("Fixtures/scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "Fixtures/scenarios/" + $0 }
        #expect(files.count >= 12)
        let result = try await Tool.run(["scenario"] + files)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == files.count * 3)
        for file in files {
            #expect(lines.contains { $0.hasPrefix("\(file): revenuecat: ok (") })
            #expect(lines.contains { $0.hasPrefix("\(file): qonversion: ok (") })
            #expect(lines.contains { $0.hasPrefix("\(file): adapty: ok (") })
        }
    }

    @Test func aWrongExpectationFailsWithOneLinePerProviderNamingTheStep() async throws {
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent(Self.story), encoding: .utf8)
        let wrong = text.replacingOccurrences(
            of: #""lookup": {"appUserId": "alice"}, "expect": {"aliases": ["@anon", "alice"], "active": ["premium"]}"#,
            with: #""lookup": {"appUserId": "alice"}, "expect": {"aliases": ["@anon", "alice"], "active": []}"#)
        #expect(wrong != text)
        let url = try await Self.scratch("wrong.json", wrong)
        let result = try await Tool.run(["scenario", url.path])
        #expect(result.status == 1)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                \(url.path): revenuecat: step 5: lookup: active: expected [], actual ["premium"]
                \(url.path): qonversion: step 5: lookup: active: expected [], actual ["premium"]
                \(url.path): adapty: step 5: lookup: active: expected [], actual ["premium"]

                """)
    }

    @Test func oneProviderAndJSON() async throws {
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent(Self.story), encoding: .utf8)
        let url = try await Self.scratch(
            "wrong.json", text.replacingOccurrences(of: #""created": true"#, with: #""created": false"#))
        let result = try await Tool.run(["scenario", "--provider", "qonversion", "--json", url.path])
        #expect(result.status == 1)
        let expected = """
            {
              "passed": false,
              "runs": [
                {
                  "failures": [
                    {
                      "action": "logIn",
                      "actual": true,
                      "expected": false,
                      "file": "\(url.path)",
                      "key": "created",
                      "provider": "qonversion",
                      "step": 3
                    }
                  ],
                  "file": "\(url.path)",
                  "passed": false,
                  "provider": "qonversion",
                  "steps": 6
                }
              ]
            }

            """
        #expect(result.stdout == expected)
        let passing = try await Tool.run(["scenario", "--provider", "revenuecat", Self.story])
        #expect(passing.status == 0)
        #expect(passing.stdout == "\(Self.story): revenuecat: ok (6 steps)\n")
    }

    @Test func aMalformedFileExits65WithALocatedMessageAndRunsNothing() async throws {
        let url = try await Self.scratch(
            "bad.json",
            #"{"start": "2025-01-01T00:00:00Z", "steps": [{"configure": {"device": "p", "storeAccount": "s"}}, {"purchase": {"device": "p", "product": "yearly"}}]}"#
        )
        let result = try await Tool.run(["scenario", Self.story, url.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "error: \(url.path): steps[1].purchase.product: \"yearly\" is not a product defined in `products` (step 2)\n"
        )
    }

    @Test func anUnreadableFileExits66() async throws {
        let result = try await Tool.run(["scenario", "Fixtures/scenarios/no-such-story.json"])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == "error: Fixtures/scenarios/no-such-story.json: cannot open: No such file or directory\n")
    }

    @Test func aStoryCanComeFromStandardInput() async throws {
        let story = try Data(contentsOf: Tool.packageRoot.appendingPathComponent(Self.story))
        let result = try await Tool.run(["scenario", "--provider", "revenuecat", "-"], stdin: story)
        #expect(result.status == 0)
        #expect(result.stdout == "<stdin>: revenuecat: ok (6 steps)\n")
        let bad = try await Tool.run(["scenario", "-"], stdin: Data(#"{"start": 1, "steps": []}"#.utf8))
        #expect(bad.status == 65)
        #expect(bad.stderr == "error: <stdin>: start: 1 must be an ISO 8601 date string, not a number\n")
    }

    @Test func usageErrors() async throws {
        #expect(try await Tool.run(["scenario"]).status == 64)
        let unknown = try await Tool.run(["scenario", "--provider", "stripe", Self.story])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.hasPrefix("error: --provider: \"stripe\" is not revenuecat, qonversion, adapty or all\n"))
    }
}
