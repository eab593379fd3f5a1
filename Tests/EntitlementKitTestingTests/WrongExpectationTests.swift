import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

@Suite(
    "A wrong expectation fails, naming the file, the provider, the step, the action and the key",
    .timeLimit(.minutes(5)))
struct WrongExpectationTests {
    /// `Stories/wrong-created.json` is `login-anonymous-to-new-id.json` with step 3 expecting
    /// `created: false` (written by hand, not derived by code).
    @Test func theCopyWithOneWrongExpectationFailsAtItsStep() async throws {
        let url = try #require(
            Bundle.module.url(forResource: "wrong-created", withExtension: "json", subdirectory: "Stories"))
        let reports = try await ScenarioRunner.run(contentsOf: url)
        for report in reports {
            #expect(!report.passed)
            #expect(report.failures.count == 1)
            let failure = try #require(report.failures.first)
            #expect(failure.step == 3)
            #expect(failure.action == "logIn")
            #expect(failure.key == "created")
            #expect(failure.expected == .bool(false))
            #expect(failure.actual == .bool(true))
            #expect(
                failure.description
                    == "wrong-created.json: \(report.provider): step 3: logIn: created: expected false, actual true")
        }
    }

    @Test func everyKindOfExpectationIsCompared() async throws {
        let scenario = try Scenario(
            json: Data(
                """
                {"start": "2025-01-01T00:00:00Z",
                 "products": {"monthly": {"kind": "autoRenewable", "period": "P1M", "entitlements": ["premium"]}},
                 "steps": [
                   {"configure": {"device": "d", "appUserId": "alice", "storeAccount": "s"},
                    "expect": {"appUserId": "bob", "isAnonymous": true, "updates": 3}},
                   {"purchase": {"device": "d", "product": "monthly"},
                    "expect": {"active": [], "error": "offline", "source": "cache",
                               "renewState": {"premium": "cancelled", "gone": "willRenew"},
                               "expirationDate": {"premium": "2025-03-01T00:00:00Z"}}},
                   {"logIn": {"device": "d", "appUserId": "carol"}, "expect": {"created": false}},
                   {"lookup": {"appUserId": "alice"}, "expect": {"aliases": ["alice", "carol"]}}
                 ]}
                """.utf8))
        let report = await ScenarioRunner.run(scenario, provider: .revenueCat, file: "all-keys.json")
        let lines = report.failures.map {
            "\($0.step) \($0.key): \($0.expected.compactText) / \($0.actual.compactText)"
        }
        #expect(
            lines == [
                "1 appUserId: \"bob\" / \"alice\"",
                "1 isAnonymous: true / false",
                "1 updates: 3 / 0",
                "2 active: [] / [\"premium\"]",
                "2 renewState.gone: \"willRenew\" / \"absent\"",
                "2 renewState.premium: \"cancelled\" / \"willRenew\"",
                "2 expirationDate.premium: \"2025-03-01T00:00:00Z\" / \"2025-02-01T00:00:00Z\"",
                "2 error: \"offline\" / null",
                "2 source: \"cache\" / \"network\"",
                "3 created: false / true",
                "4 aliases: [\"alice\",\"carol\"] / [\"alice\"]",
            ])
    }
}
