import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitStripe
import Foundation
import Testing

/// Every `Fixtures/stripe` pair through the shared verifier, mapped with the folder's `catalog.json`: the
/// adapter's snapshot must equal the hand-written expectation field by field, or fail with exactly the
/// expected kind and path.
@Suite("Stripe fixtures", .timeLimit(.minutes(5)))
struct StripeFixtureTests {
    static let scenarios: [FixtureScenario] = (try? FixtureCatalog.scenarios(provider: .stripe)) ?? []

    @Test("the folder has a fixture for every rule, status and document form")
    func everyRuleHasAFixture() throws {
        let names = Set(Self.scenarios.map(\.name))
        let required = [
            "sub-active-basil", "sub-active-pre-basil", "sub-period-item-wins-over-top-level", "sub-trialing",
            "sub-trialing-past-trial-end", "sub-past-due-within-period", "sub-past-due-after-period", "sub-unpaid",
            "sub-incomplete", "sub-incomplete-expired", "sub-canceled-future-period-end",
            "sub-canceled-without-ended-at", "sub-paused", "sub-unknown-status", "sub-cancel-at-period-end",
            "sub-cancel-at-caps-expiration", "sub-pause-collection", "sub-multi-item", "sub-expanded-objects",
            "sub-test-mode", "catalog-lookup-key", "catalog-price-before-product", "catalog-unnamed-item",
            "session-paid-lifetime", "session-duration-clamped", "session-duration-elapsed", "session-unpaid",
            "session-open", "session-no-payment-required", "session-refunded-latest-charge",
            "combined-full-and-partial-refund", "combined-subscription-mode-session", "list-latest-access-wins",
            "event-subscription-updated", "combined-events-deletion-wins", "combined-session-refund-events",
            "combined-lifetime-beats-subscription",
        ]
        #expect(Set(required).subtracting(names).isEmpty, "missing: \(Set(required).subtracting(names).sorted())")
        #expect(names.filter { !$0.hasPrefix("error-") }.count >= 25)
        #expect(names.filter { $0.hasPrefix("error-") }.count >= 15)
    }

    @Test("both API-version shapes of the same facts have one expectation")
    func bothShapesOneSnapshot() throws {
        let basil = try FixtureCatalog.scenario(provider: .stripe, name: "sub-active-basil")
        let preBasil = try FixtureCatalog.scenario(provider: .stripe, name: "sub-active-pre-basil")
        let catalog = try basil.catalog()
        let adapter = StripeAdapter(configuration: .init(catalog: catalog))
        let at = evaluationInstant
        #expect(
            try adapter.snapshot(from: basil.document(), at: at) == adapter.snapshot(from: preBasil.document(), at: at))
    }

    @Test("maps like its expectation", arguments: scenarios)
    func scenarioMatches(_ scenario: FixtureScenario) throws {
        #expect(scenario.catalogURL?.lastPathComponent == FixtureCatalog.catalogFileName)
        let adapter = StripeAdapter(configuration: .init(catalog: try scenario.catalog()))
        let result = try FixtureVerifier.verify(scenario, with: adapter)
        #expect(result.passed, "\(result)")
    }
}
