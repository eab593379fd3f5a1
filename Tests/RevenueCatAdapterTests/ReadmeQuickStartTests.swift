import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitRevenueCat
import Foundation
import Testing

/// The README's quick start, run on a bundled response, so the example keeps compiling and stays true.
@Suite("README quick start", .timeLimit(.minutes(5)))
struct ReadmeQuickStartTests {
    @Test func quickStartAnswersAsTheReadmeSays() throws {
        let body = try FixtureCatalog.scenario(provider: .revenueCat, name: "active-monthly").document()

        // The README's lines, verbatim where they compute something.
        let instant = RFC3339.date(from: "2025-09-15T10:00:00Z") ?? .now
        let snapshot = try RevenueCatAdapter().snapshot(from: body, at: instant)  // or QonversionAdapter()
        #expect(snapshot.isActive("pro"))

        // Every `print(EXPRESSION)  // OUTPUT` line of the README prints OUTPUT.
        let printed: [String: String] = [
            "snapshot.activeEntitlementIds": "\(snapshot.activeEntitlementIds)",
            "snapshot[\"pro\"]?.renewState ?? .unknown": "\(snapshot["pro"]?.renewState ?? .unknown)",
        ]
        let example = try Self.readmeQuickStart()
        #expect(example.contains(#"let instant = RFC3339.date(from: "2025-09-15T10:00:00Z") ?? .now"#))
        #expect(example.contains("let snapshot = try RevenueCatAdapter().snapshot(from: body, at: instant)"))
        let printLines = example.split(separator: "\n").filter { $0.hasPrefix("print(") }
        #expect(printLines.count == printed.count, "a README print line this test does not run")
        for line in printLines {
            let parts = line.components(separatedBy: "//")
            guard parts.count == 2 else {
                Issue.record("README print line without one output comment: \(line)")
                continue
            }
            let code = parts[0].trimmingCharacters(in: .whitespaces)
            let expression = String(code.dropFirst("print(".count).dropLast())
            let output = parts[1].trimmingCharacters(in: .whitespaces)
            let actual = try #require(printed[expression], "README prints \(expression), which this test does not run")
            #expect(output.hasPrefix(actual), "README says \(expression) prints \(output), it prints \(actual)")
        }

        let cached = snapshot.canonicalJSONData()
        let dayAfterExpiry = try #require(RFC3339.date(from: "2025-10-04T12:00:05Z"))
        let later = try EntitlementSnapshot(json: cached).evaluated(by: FixedClock(dayAfterExpiry))
        #expect(later["pro"]?.isActive == false, "an expired entitlement lapses even from a cache")
        #expect(try EntitlementSnapshot(json: cached).evaluated(at: instant) == snapshot)
    }

    /// The Swift code block of the README's "Quick start" section.
    static func readmeQuickStart() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Quick start\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first)
        return try #require(block.components(separatedBy: "\n```").first)
    }
}
