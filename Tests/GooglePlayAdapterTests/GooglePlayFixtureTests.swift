import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitGooglePlay
import Foundation
import Testing

/// Every `Fixtures/googleplay` pair through the shared verifier, mapped with the folder's `catalog.json`:
/// the adapter's snapshot must equal the hand-written expectation field by field, or fail with exactly the
/// expected kind and path.
@Suite("Google Play fixtures", .timeLimit(.minutes(5)))
struct GooglePlayFixtureTests {
    static let scenarios: [FixtureScenario] = (try? FixtureCatalog.scenarios(provider: .googlePlay)) ?? []

    @Test("the folder has a fixture for every rule and state")
    func everyRuleHasAFixture() throws {
        let names = Set(try FixtureCatalog.scenarios(provider: .googlePlay).map(\.name))
        let required = [
            "sub-active-auto-renewing", "sub-free-trial-test-purchase", "sub-intro-price-renewal",
            "sub-offer-without-phase", "sub-canceled-still-paid", "sub-in-grace-period", "sub-on-hold", "sub-paused",
            "sub-expired-billing-problem", "sub-revoked-by-developer", "sub-pending-signup", "sub-prepaid-plan",
            "sub-with-add-on", "sub-vanity-promo-code", "listing-upgrade-chain", "listing-chain-latest-start-wins",
            "product-bare-with-product-id", "product-bare-without-product-id", "listing-one-time-products",
            "listing-unnamed-subscription",
        ]
        #expect(Set(required).subtracting(names).isEmpty, "missing: \(Set(required).subtracting(names).sorted())")
        #expect(names.filter { !$0.hasPrefix("error-") && $0 != "product-bare-without-product-id" }.count >= 12)
    }

    @Test("the catalog file is read, and is not a scenario")
    func catalogIsLoaded() throws {
        let catalog = try #require(try FixtureCatalog.entitlementCatalog(provider: .googlePlay))
        #expect(catalog.entitlementIds(forProduct: "acme_lifetime") == ["pro"])
        #expect(catalog.entitlementIds(forProduct: "acme_sticker") == [])
        #expect(catalog.duration(forProduct: "acme_season")?.months == 3)
        #expect(!Self.scenarios.contains { $0.name == "catalog" })
    }

    @Test("maps like its expectation", arguments: scenarios)
    func scenarioMatches(_ scenario: FixtureScenario) throws {
        #expect(scenario.catalogURL?.lastPathComponent == FixtureCatalog.catalogFileName)
        let result = try FixtureVerifier.verify(scenario, with: GooglePlayAdapter(catalog: scenario.catalog()))
        #expect(result.passed, "\(result)")
    }
}
