import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

@Suite("Bundled stories: every one holds for every provider", .timeLimit(.minutes(5)))
struct BundledStoryTests {
    // Test arguments cannot throw; a listing that fails here gives no cases, which the test below
    // turns into a failure with the error itself.
    static let files: [URL] = (try? BundledScenarios.files()) ?? []

    @Test func theStoriesAreListedAndThereAreAtLeastTwelve() throws {
        let listed = try BundledScenarios.files()
        #expect(listed.count >= 12, "bundled stories: \(listed.map(\.lastPathComponent))")
        #expect(listed == Self.files)
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
