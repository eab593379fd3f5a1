import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import EntitlementKitTesting
import Foundation
import Testing

@Suite("Fixture harness: an adapter against a directory of responses and expected snapshots", .timeLimit(.minutes(5)))
struct FixtureHarnessTests {
    @Test func theBundledFixturesPass() throws {
        let revenueCat = try #require(FixtureCatalog.directory(provider: .revenueCat))
        for result in try FixtureHarness.verify(directory: revenueCat, adapter: RevenueCatAdapter()) {
            #expect(result.passed, "\(result)")
        }
        let qonversion = try #require(FixtureCatalog.directory(provider: .qonversion))
        for result in try FixtureHarness.verify(directory: qonversion, adapter: QonversionAdapter()) {
            #expect(result.passed, "\(result)")
        }
    }

    @Test func strictModeFailsEveryUnknownValue() throws {
        let revenueCat = try #require(FixtureCatalog.directory(provider: .revenueCat))
        let results = try FixtureHarness.verify(directory: revenueCat, adapter: RevenueCatAdapter(), strict: true)
        let unknown = try #require(results.first { $0.scenario.name == "unknown-raw-values" })
        #expect(!unknown.passed)
        #expect(unknown.problems.contains { $0.hasPrefix("strict: ") && $0.hasSuffix(" is unknown") })
        #expect(unknown.problems.allSatisfy { $0.hasPrefix("strict: ") })
        let active = try #require(results.first { $0.scenario.name == "active-monthly" })
        #expect(active.passed, "\(active)")
    }

    @Test func aWrongExpectedFieldIsReportedWithItsPath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("harness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try #require(FixtureCatalog.directory(provider: .revenueCat))
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("active-monthly.json"),
            to: directory.appendingPathComponent("mine.json"))
        let expected = try String(
            contentsOf: source.appendingPathComponent("active-monthly.expected.json"), encoding: .utf8)
        let wrong = expected.replacingOccurrences(of: "\"willRenew\"", with: "\"cancelled\"")
        #expect(wrong != expected)
        try wrong.write(to: directory.appendingPathComponent("mine.expected.json"), atomically: true, encoding: .utf8)

        let results = try FixtureHarness.verify(directory: directory, adapter: RevenueCatAdapter())
        let result = try #require(results.first)
        #expect(results.count == 1)
        #expect(!result.passed)
        #expect(result.problems.contains { $0.contains("renewState") && $0.contains("cancelled") })
    }

    @Test func anUnpairedResponseIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("harness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{}".utf8).write(to: directory.appendingPathComponent("lonely.json"))
        #expect(throws: FixtureCatalogError.self) {
            try FixtureHarness.verify(directory: directory, adapter: RevenueCatAdapter())
        }
    }

    @Test func unknownValuesAreFoundAtTheirPaths() {
        let value = JSONValue.object([
            "entitlements": .object(["pro": .object(["store": .string("unknown"), "id": .string("pro")])]),
            "list": .array([.string("a"), .string("unknown")]),
        ])
        #expect(
            FixtureHarness.unknownValues(in: value).map(\.description) == ["entitlements.pro.store", "list[1]"])
    }
}
