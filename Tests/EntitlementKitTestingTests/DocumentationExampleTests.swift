import Foundation
import Testing

@Suite("The \"Testing your paywall logic\" article shows the files its example test runs", .timeLimit(.minutes(5)))
struct DocumentationExampleTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let article = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/EntitlementKitTesting/EntitlementKitTesting.docc/TestingYourPaywallLogic.md")

    /// The fenced code blocks of `language` in the article, in order.
    static func blocks(_ language: String) throws -> [String] {
        let text = try String(contentsOf: article, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let lines = current {
                if line == "```" {
                    blocks.append(lines.joined(separator: "\n") + "\n")
                    current = nil
                } else {
                    current = lines + [line]
                }
            } else if line == "```" + language {
                current = []
            }
        }
        return blocks
    }

    @Test func theScenarioBlockIsTheStoryTheTestRuns() throws {
        let story = try String(
            contentsOf: Self.testsDirectory.appendingPathComponent("Stories/paywall.json"), encoding: .utf8)
        #expect(try Self.blocks("json").first == story)
    }

    @Test func theSwiftBlockIsTheTestFile() throws {
        let source = try String(
            contentsOf: Self.testsDirectory.appendingPathComponent("PaywallExampleTests.swift"), encoding: .utf8)
        let withoutComment = source.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("//") }.joined(separator: "\n")
            .replacingOccurrences(of: "import Testing\n\n\n", with: "import Testing\n\n")
        #expect(try Self.blocks("swift").first == withoutComment)
    }
}
