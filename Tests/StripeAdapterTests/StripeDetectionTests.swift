import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitGooglePlay
import EntitlementKitMigration
import EntitlementKitStripe
import Foundation
import TestSupport
import Testing

/// Which documents the adapter claims without `--from`, and that it never claims another backend's.
@Suite("Stripe document detection", .timeLimit(.minutes(5)))
struct StripeDetectionTests {
    let adapter = StripeAdapter()

    private func recognizes(_ object: [String: Any]) throws -> Bool {
        adapter.recognizes(try JSONValue.parse(json(object)))
    }

    @Test("the five forms are recognised by object")
    func recognisedForms() throws {
        #expect(try recognizes(subscription()))
        #expect(try recognizes(checkoutSession()))
        #expect(
            try recognizes(
                stripeEvent("customer.subscription.updated", created: "2025-09-01T00:00:00Z", object: subscription())))
        #expect(try recognizes(stripeList([subscription(), checkoutSession()])))
        #expect(
            try recognizes([
                "subscriptions": [],
                "events": [stripeEvent("invoice.paid", created: "2025-09-01T00:00:00Z", object: [:])],
            ]))
        #expect(try recognizes(["subscriptions": stripeList([subscription()])]))
        // An empty list is Stripe's by its URL (Qonversion's v4 lists share the envelope).
        #expect(try recognizes(["object": "list", "data": [], "has_more": false, "url": "/v1/subscriptions"]))
        #expect(try !recognizes(["object": "list", "data": [], "has_more": false, "url": "/v4/users/u/entitlements"]))
    }

    @Test("lookalikes are not claimed")
    func lookalikes() throws {
        #expect(try !recognizes([:]))
        #expect(try !recognizes(["object": "customer"]))
        #expect(try !recognizes(stripeList([["object": "invoice"]])))
        #expect(try !recognizes(["subscriptions": []]))  // ambiguous: nothing says Stripe
        #expect(try !recognizes(["subscriptions": [["purchaseToken": "t", "purchase": [:]]]]))  // Google Play
        #expect(!adapter.recognizes(.array([])))
    }

    @Test("a Google Play listing is not Stripe's, and a Stripe combined object is not Google Play's")
    func playAndStripeListingsDoNotCollide() throws {
        let combined = try JSONValue.parse(json(["subscriptions": [], "checkoutSessions": [checkoutSession()]]))
        #expect(adapter.recognizes(combined))
        #expect(!GooglePlayAdapter().recognizes(combined))
    }

    @Test(
        "no other backend's fixture is claimed, and every Stripe fixture is",
        arguments: ProviderID.backends + [.googlePlay, .appStore, .stripe])
    func noCollisions(_ provider: ProviderID) throws {
        for scenario in try FixtureCatalog.scenarios(provider: provider) {
            guard let document = try? JSONValue.parse(scenario.document()) else { continue }
            if provider == .stripe {
                if case .snapshot = scenario.expectation { #expect(adapter.recognizes(document), "\(scenario)") }
            } else {
                #expect(!adapter.recognizes(document), "\(scenario)")
            }
        }
    }

    @Test("the bulk decoder detects Stripe documents among every format")
    func decoderDetects() throws {
        let decoder = SnapshotDecoder(adapters: [StripeAdapter(), GooglePlayAdapter()])
        let snapshot = try decoder.snapshot(from: json(subscription()), at: evaluationInstant)
        #expect(snapshot.provider == .stripe)
    }
}
