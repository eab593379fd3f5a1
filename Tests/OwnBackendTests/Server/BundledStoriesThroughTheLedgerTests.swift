import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

/// The bundled scenario stories that make sense for a store-direct app, run through the real client, a
/// real `OwnBackendProvider` and a loopback server over a real `EntitlementLedger` (App Store purchases
/// as signed JWS and signed server notifications). Which stories, and why not the others: the
/// "Running your own backend" article's table.
@Suite(.timeLimit(.minutes(5))) struct BundledStoriesThroughTheLedgerTests {
    /// The stories that do not apply, and why (the article says the same).
    static let notApplying: [String: String] = [
        "refund-mid-period.json": refundRule,
        "lifetime.json": refundRule,
        "cancel-then-expire.json":
            "its purchase, cancel, resume and cancel fall on one simulated millisecond; Apple signs each change later than the last, so the notifications are signed 1 ms apart, and the client, which takes a snapshot's requestDate as the server's time, runs 3 ms ahead at the story's inclusive expiry instant",
    ]
    static let refundRule =
        "RevenueCat's refund rule (access through the refund instant, the refund instant as the expiry); the App Store's mapping, which the ledger's App Store source uses, grants a revoked transaction nothing at once"

    // Test arguments cannot throw; a listing that fails gives no cases, which the last test turns into a
    // failure with the error itself.
    static let stories: [String] = ((try? BundledScenarios.files()) ?? []).map(\.lastPathComponent).filter {
        notApplying[$0] == nil
    }

    @Test(arguments: stories)
    func storyHoldsThroughTheLedger(_ name: String) async throws {
        let directory = try #require(BundledScenarios.directory)
        let scenario = try Scenario(contentsOf: directory.appendingPathComponent(name))
        let report = try await ScenarioRunner.run(scenario, file: name) { store in
            try LedgerScenarioServer(scenario: scenario, store: store)
        }
        #expect(report.passed, "\(report)")
    }

    @Test func everyBundledStoryIsRunOrSaysWhyNot() throws {
        let names = try BundledScenarios.files().map(\.lastPathComponent)
        #expect(Set(names) == Set(Self.stories).union(Self.notApplying.keys))
        #expect(Self.stories.count >= 10)
    }
}
