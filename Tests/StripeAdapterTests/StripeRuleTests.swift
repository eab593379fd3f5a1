import EntitlementKit
import EntitlementKitStripe
import Foundation
import TestSupport
import Testing

/// The rules of stripe-mapping.md that the fixtures do not pin at their edges: the inclusive expiry, the
/// timestamp range, the catalog's identity default, the configurable metadata key, the event fold's ties.
@Suite("Stripe mapping rules", .timeLimit(.minutes(1)))
struct StripeRuleTests {
    @Test("access holds at the period end itself and ends after it")
    func expiryIsInclusive() throws {
        let end = instant("2025-10-01T00:00:00Z")
        #expect(try stripeSnapshot(subscription(), at: end)["prod_Pro"]?.isActive == true)
        #expect(try stripeSnapshot(subscription(), at: end.addingTimeInterval(1))["prod_Pro"]?.isActive == false)
    }

    @Test("without a catalog every product is its own entitlement, named by its prod_ id")
    func identityCatalog() throws {
        let snapshot = try stripeSnapshot(subscription())
        #expect(Array(snapshot.entitlements.keys) == ["prod_Pro"])
        #expect(snapshot["prod_Pro"]?.productPlanId == "price_pro")
        #expect(snapshot["prod_Pro"]?.store == .stripe)
        #expect(snapshot["prod_Pro"]?.storeRaw == nil)
        #expect(snapshot.provider == .stripe)
    }

    @Test("timestamps are integers from 0 to 9999-12-31T23:59:59Z")
    func timestampRange() throws {
        for accepted in [0, 253_402_300_799] {
            #expect(stripeFailure(subscription("canceled", extra: ["ended_at": accepted])) == nil)
        }
        for refused: Any in [-1, 253_402_300_800, "1750000000", 1_750_000_000.5, true] {
            let error = try #require(stripeFailure(subscription("canceled", extra: ["ended_at": refused])))
            #expect(error.path.description == "ended_at", "\(refused)")
        }
        #expect(stripeFailure(subscription("canceled", extra: ["ended_at": NSNull()])) == nil)
        // Written with a fraction or an exponent, even a whole number is not Stripe's integer.
        let text = String(decoding: json(subscription("canceled", extra: ["ended_at": 1_234_567_890])), as: UTF8.self)
        for written in ["1234567890.0", "1.23456789e9"] {
            let error = try #require(stripeFailure(text: text.replacingOccurrences(of: "1234567890", with: written)))
            #expect(error.path.description == "ended_at", "\(written)")
        }
    }

    @Test("the metadata key is configurable, and a session offers client_reference_id after it")
    func appUserIdKey() throws {
        let document: [String: Any] = [
            "subscriptions": [subscription(extra: ["metadata": ["uid": "from-metadata", "app_user_id": "default"]])],
            "checkoutSessions": [
                checkoutSession(extra: ["created": seconds("2025-05-01T00:00:00Z"), "client_reference_id": "older"])
            ],
        ]
        #expect(try stripeSnapshot(document).appUserId == "default")
        #expect(
            try stripeSnapshot(document, configuration: .init(appUserIdMetadataKey: "uid")).appUserId == "from-metadata"
        )
        let newerSession: [String: Any] = [
            "subscriptions": [subscription(extra: ["metadata": ["uid": "from-metadata"]])],
            "checkoutSessions": [checkoutSession(extra: ["client_reference_id": "newer", "metadata": ["uid": ""]])],
        ]
        let snapshot = try stripeSnapshot(newerSession, configuration: .init(appUserIdMetadataKey: "uid"))
        #expect(snapshot.appUserId == "newer")
        #expect(snapshot.originalAppUserId == "cus_1")
    }

    @Test("events of one second fold by rank, then by position; the creation never beats an update")
    func eventFoldTies() throws {
        let second = "2025-09-14T08:00:00Z"
        let renewing = subscription()
        let cancelling = subscription(extra: ["cancel_at_period_end": true])
        let updatedThenCreated: [String: Any] = [
            "events": [
                stripeEvent("customer.subscription.updated", id: "evt_b", created: second, object: cancelling),
                stripeEvent("customer.subscription.created", id: "evt_a", created: second, object: renewing),
            ]
        ]
        #expect(try stripeSnapshot(updatedThenCreated)["prod_Pro"]?.renewState == .cancelled)
        let twoUpdates: [String: Any] = [
            "events": [
                stripeEvent("customer.subscription.updated", id: "evt_b", created: second, object: cancelling),
                stripeEvent("customer.subscription.updated", id: "evt_c", created: second, object: renewing),
            ]
        ]
        #expect(try stripeSnapshot(twoUpdates)["prod_Pro"]?.renewState == .willRenew)
    }

    @Test("a Customer, an Invoice, an array, an empty object are not Stripe documents")
    func notStripeDocuments() throws {
        for document in [#"{"object":"customer","id":"cus_1"}"#, #"{"object":"invoice"}"#, "[]", "{}"] {
            let error = try #require(stripeFailure(text: document), "\(document)")
            #expect(error.kind == .unrecognizedFormat, "\(document)")
        }
    }

    @Test("the winner's expiry is capped by cancel_at and ended_at for every status")
    func capsApplyToEveryStatus() throws {
        let ended = subscription("past_due", extra: ["ended_at": seconds("2025-09-15T09:00:00Z")])
        let entitlement = try #require(try stripeSnapshot(ended)["prod_Pro"])
        #expect(entitlement.expirationDate == instant("2025-09-15T09:00:00Z"))
        #expect(!entitlement.isActive)
    }
}
