import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitRevenueCat
import Foundation
import Testing

/// Every `Fixtures/revenuecat` pair through the shared verifier: the adapter's snapshot must equal the
/// hand-written expectation field by field, or fail with exactly the expected kind and path.
@Suite("RevenueCat fixtures", .timeLimit(.minutes(5)))
struct FixtureScenarioTests {
    static let scenarios: [FixtureScenario] = (try? FixtureCatalog.scenarios(provider: .revenueCat)) ?? []

    @Test("the catalog lists every scenario the issue asks for")
    func catalogIsComplete() throws {
        let names = Set(try FixtureCatalog.scenarios(provider: .revenueCat).map(\.name))
        let required = [
            "active-monthly", "expired", "lifetime-non-subscription", "promotional-grant", "trial", "intro", "prepaid",
            "billing-issue-in-grace", "billing-issue-after-grace", "unsubscribed-paid-through", "family-shared",
            "sandbox",
            "google-base-plan", "unknown-raw-values", "refunded", "one-product-two-entitlements", "orphan-entitlement",
            "at-expiry-boundary", "legacy-purchaserinfo", "cached-customerinfo", "several-non-subscription-purchases",
            "billing-issue-and-unsubscribe",
        ]
        #expect(Set(required).subtracting(names).isEmpty, "missing: \(Set(required).subtracting(names).sorted())")
    }

    @Test("the catalog has a fixture folder, with scenarios, for every backend and for nothing else")
    func catalogCoversEveryBackend() throws {
        #expect(FixtureCatalog.providers == ProviderID.backends)
        for provider in ProviderID.backends {
            #expect(try !FixtureCatalog.scenarios(provider: provider).isEmpty, "\(provider)")
            #expect(try FixtureCatalog.scenarios(provider: provider).allSatisfy { $0.provider == provider })
        }
        #expect(throws: FixtureCatalogError.missingFolder(.unified)) {
            try FixtureCatalog.scenarios(provider: .unified)
        }
    }

    @Test("maps like its expectation", arguments: scenarios)
    func scenarioMatches(_ scenario: FixtureScenario) throws {
        let result = try FixtureVerifier.verify(scenario, with: RevenueCatAdapter())
        #expect(result.passed, "\(result)")
    }
}
