import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitQonversion
import Testing

/// Every `Fixtures/qonversion` pair, through the shared harness: the snapshot must match the
/// hand-written expectation field by field, and malformed documents must fail with the stated kind
/// and path.
@Suite("Qonversion fixtures", .timeLimit(.minutes(5)))
struct QonversionFixtureTests {
    static let scenarios = (try? FixtureCatalog.scenarios(provider: .qonversion)) ?? []

    @Test("the catalog is complete and well paired")
    func catalog() throws {
        let scenarios = try FixtureCatalog.scenarios(provider: .qonversion)
        let mapped = scenarios.filter { if case .snapshot = $0.expectation { true } else { false } }
        let failing = scenarios.filter { if case .failure = $0.expectation { true } else { false } }
        #expect(mapped.count >= 16)
        #expect(failing.count >= 5)
        let required = [
            "active", "cancelled-paid-through", "billing-issue", "lifetime", "expired", "family-sharing",
            "offer-code", "manual-grant", "sandbox", "unknown-raw-values", "outage-minimal", "refund-subscription",
            "refund-lifetime", "stale-active-past-expiry", "several-entitlements", "v3-rest-list", "v4-rest-list",
            "success-false", "permissions-not-array", "element-without-id", "active-wrong-type", "truncated-json",
            "success-true-empty-data", "attribution-reply", "eligibility-reply", "numeric-transaction-ids",
            "transaction-id-fraction",
        ]
        let names = Set(scenarios.map(\.name))
        for name in required {
            #expect(names.contains(name), "missing fixture \(name)")
        }
    }

    @Test("maps as the fixture says", arguments: scenarios)
    func scenario(_ scenario: FixtureScenario) throws {
        let result = try FixtureVerifier.verify(scenario, with: QonversionAdapter())
        #expect(result.passed, "\(result)")
    }
}
