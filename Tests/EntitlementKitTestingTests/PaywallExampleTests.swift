import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

// The complete example of the "Testing your paywall logic" article (the article quotes this file and
// Stories/paywall.json; DocumentationExampleTests keeps them identical).

@Suite("Paywall", .timeLimit(.minutes(1)))
struct PaywallTests {
    @Test(arguments: [ProviderID.revenueCat, .qonversion])
    func theStoryHoldsOnEveryBackend(provider: ProviderID) async throws {
        let url = try #require(
            Bundle.module.url(forResource: "paywall", withExtension: "json", subdirectory: "Stories"))
        let scenario = try Scenario(contentsOf: url)
        let report = await ScenarioRunner.run(scenario, provider: provider, file: "paywall.json")
        #expect(report.passed, "\(report)")
    }

    @Test func aGracePeriodStillUnlocksPremium() {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let snapshot = EntitlementBuilder.snapshot([EntitlementBuilder.inGracePeriod("premium", at: now)], at: now)
        #expect(snapshot.isActive("premium"))
        #expect(snapshot["premium"]?.renewState == .billingIssue)
    }
}
