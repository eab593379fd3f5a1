import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

@Suite("Bundled stories: every one holds for every provider")
struct BundledStoryTests {
    static let files: [URL] = (try? BundledScenarios.files()) ?? []

    @Test func thereAreAtLeastTwelveStories() {
        #expect(Self.files.count >= 12, "bundled stories: \(Self.files.map(\.lastPathComponent))")
    }

    @Test(arguments: files)
    func storyPassesForEveryProvider(file: URL) async throws {
        let reports = try await ScenarioRunner.run(contentsOf: file)
        #expect(reports.map(\.provider) == [.revenueCat, .qonversion, .adapty])
        for report in reports {
            #expect(report.passed, "\(report)")
            #expect(report.stepCount > 0)
        }
    }
}
