import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// isActive and expirationDate come from the entitlement's own `expires_date`, judged at the given
/// instant by the core's inclusive rule.
@Suite("Activity at an instant", .timeLimit(.minutes(5)))
struct ActivityTests {
    static let expiry = "2025-10-03T12:00:05Z"

    @Test(
        "active at the expiry instant, inactive a millisecond and a second later",
        arguments: [
            ("2025-10-03T12:00:04.999Z", true),
            ("2025-10-03T12:00:05Z", true),
            ("2025-10-03T12:00:05.001Z", false),
            ("2025-10-03T12:00:06Z", false),
        ])
    func boundaryIsInclusive(instant: String, active: Bool) throws {
        let snapshot = try SubscriberDocument.monthlyPro().snapshot(at: instant)
        #expect(snapshot["pro"]?.isActive == active)
        #expect(snapshot.activeEntitlementIds == (active ? ["pro"] : []))
    }

    @Test("no expiry means active at any instant")
    func nullExpiryIsActive() throws {
        let document = SubscriberDocument.monthlyPro(
            subscription: ["\"expires_date\": null"], entitlement: ["\"expires_date\": null"])
        #expect(try document.snapshot(at: "2099-01-01T00:00:00Z")["pro"]?.isActive == true)
    }

    @Test(
        "the entitlement's expiry decides, not the subscription's",
        arguments: [
            // (entitlement expires, subscription expires, active at 2025-09-15T10:00:00Z)
            ("2026-03-01T00:00:00Z", "2025-09-01T00:00:00Z", true),
            ("2025-09-01T00:00:00Z", "2026-03-01T00:00:00Z", false),
        ])
    func entitlementExpiryDecides(entitlementExpiry: String, subscriptionExpiry: String, active: Bool) throws {
        let document = SubscriberDocument.monthlyPro(
            subscription: ["\"expires_date\": \"\(subscriptionExpiry)\""],
            entitlement: ["\"expires_date\": \"\(entitlementExpiry)\""])
        let pro = try #require(try document.snapshot()["pro"])
        #expect(pro.isActive == active)
        #expect(pro.expirationDate == instant(entitlementExpiry))
        #expect(
            pro.transactions.first?.expirationDate == instant(subscriptionExpiry),
            "the transaction keeps the subscription's period end")
    }

    @Test("access is judged at the given instant, not at request_date")
    func instantNotRequestDate() throws {
        var document = SubscriberDocument.monthlyPro()
        document.requestDate = "\"2025-12-01T00:00:00Z\""
        let snapshot = try document.snapshot(at: "2025-09-15T10:00:00Z")
        #expect(snapshot["pro"]?.isActive == true)
        #expect(snapshot.requestDate == instant("2025-12-01T00:00:00Z"))
        #expect(snapshot.evaluatedAt == instant("2025-09-15T10:00:00Z"))
    }

    @Test("a billing issue, an unsubscribe or a refund date adds no rule of its own")
    func flagsDoNotChangeAccess() throws {
        let document = SubscriberDocument.monthlyPro(subscription: [
            "\"billing_issues_detected_at\": \"2025-09-03T12:07:41Z\"",
            "\"unsubscribe_detected_at\": \"2025-09-04T08:00:00Z\"",
            "\"refunded_at\": \"2025-09-05T08:00:00Z\"",
            "\"grace_period_expires_date\": \"2025-09-10T12:00:05Z\"",
        ])
        #expect(try document.snapshot()["pro"]?.isActive == true)
    }

    @Test("a cached snapshot re-judged later lapses at the entitlement's expiry")
    func reEvaluation() throws {
        let snapshot = try SubscriberDocument.monthlyPro().snapshot()
        #expect(snapshot.evaluated(at: instant("2025-10-03T12:00:05Z")).isActive("pro"))
        #expect(!snapshot.evaluated(at: instant("2025-10-03T12:00:06Z")).isActive("pro"))
    }
}
