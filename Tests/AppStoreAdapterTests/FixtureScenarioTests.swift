import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitFixtures
import Foundation
import Testing

/// Every `Fixtures/appstore` scenario through the shared verifier, mapped with its own catalog
/// (`<name>.catalog.json`, else none) and the fixtures' bundle id: the snapshot must equal the
/// hand-written expectation field by field, or fail with exactly the expected kind and path.
@Suite("App Store fixtures", .timeLimit(.minutes(5)))
struct FixtureScenarioTests {
    /// Every fixture transaction is for this app (Fixtures/README.md).
    static let bundleId = "com.acme.trails"
    static let scenarios: [FixtureScenario] = (try? FixtureCatalog.scenarios(provider: .appStore)) ?? []

    @Test("at least 20 snapshot fixtures and the failure cases")
    func enoughFixtures() throws {
        let scenarios = try FixtureCatalog.scenarios(provider: .appStore)
        let snapshots = scenarios.filter { if case .snapshot = $0.expectation { true } else { false } }
        #expect(snapshots.count >= 20)
        #expect(scenarios.count - snapshots.count >= 8)
    }

    @Test("maps like its expectation", arguments: scenarios)
    func scenarioMatches(_ scenario: FixtureScenario) throws {
        let adapter = AppStoreAdapter(catalog: try scenario.catalog(), bundleId: Self.bundleId)
        let result = try FixtureVerifier.verify(scenario, with: adapter)
        #expect(result.passed, "\(result)")
    }

    @Test("the fixtures name their app: without the bundle id check they map the same")
    func bundleIdIsNotWhatMakesThemPass() throws {
        for scenario in Self.scenarios where scenario.name != "bundle-id-of-another-app" {
            let result = try FixtureVerifier.verify(scenario, with: AppStoreAdapter(catalog: try scenario.catalog()))
            #expect(result.passed, "\(result)")
        }
    }
}
