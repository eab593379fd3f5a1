import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitFixtures
import Testing

/// Every `Fixtures/adapty` pair, through the shared harness: the snapshot must match the hand-written
/// expectation field by field, and malformed documents must fail with the stated kind and path.
@Suite("Adapty fixtures", .timeLimit(.minutes(5)))
struct AdaptyFixtureTests {
    static let scenarios = (try? FixtureCatalog.scenarios(provider: AdaptyAdapter().provider)) ?? []

    @Test("the catalog is complete and well paired")
    func catalog() throws {
        let scenarios = try FixtureCatalog.scenarios(provider: AdaptyAdapter().provider)
        let mapped = scenarios.filter { if case .snapshot = $0.expectation { true } else { false } }
        let failing = scenarios.filter { if case .failure = $0.expectation { true } else { false } }
        #expect(mapped.count >= 20)
        #expect(failing.count >= 10)
        let required = [
            "sdk-envelope-active-monthly", "server-v1-base-plan-id", "bridge-play-product-base-plan",
            "bridge-success-reply-free-trial", "server-v2-active-renewing", "server-v2-refund-and-revoked",
            "server-v2-offers-grace-lifetime", "lifetime", "refund", "grace-period-billing-issue",
            "billing-error-expired", "will-renew-false-cancelled", "will-renew-missing", "offers-period-types",
            "cancellation-reasons", "non-subscription-lifetime-sandbox", "offsets-and-microseconds", "null-containers",
            "server-grant-adapty-store", "stale-active-past-expiry", "subscription-wins-over-non-subscription",
            "store-values", "server-v2-null-containers", "error-is-active-missing", "error-lifetime-with-expiry",
            "error-id-disagrees-with-key", "error-access-level-without-product", "error-duplicate-key",
            "error-v2-duplicate-access-level", "server-v2-null-paid-access-levels", "error-id-decomposed",
            "error-envelope-id-decomposed",
        ]
        let names = Set(scenarios.map(\.name))
        for name in required {
            #expect(names.contains(name), "missing fixture \(name)")
        }
    }

    @Test("maps as the fixture says", arguments: scenarios)
    func scenario(_ scenario: FixtureScenario) throws {
        let result = try FixtureVerifier.verify(scenario, with: AdaptyAdapter())
        #expect(result.passed, "\(result)")
    }
}
