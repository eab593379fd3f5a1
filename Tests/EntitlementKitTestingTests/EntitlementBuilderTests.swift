import EntitlementKit
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

@Suite("Builders: test values with the states a paywall must handle, no JSON", .timeLimit(.minutes(5)))
struct EntitlementBuilderTests {
    let now = instant("2025-06-15T12:00:00Z")

    @Test func activeStatesGrantAccess() {
        let cases: [(Entitlement, RenewState)] = [
            (EntitlementBuilder.activeMonthly(at: now), .willRenew),
            (EntitlementBuilder.activeAnnual(at: now), .willRenew),
            (EntitlementBuilder.trial(at: now), .willRenew),
            (EntitlementBuilder.cancelled(at: now), .cancelled),
            (EntitlementBuilder.inGracePeriod(at: now), .billingIssue),
            (EntitlementBuilder.lifetime(at: now), .nonRenewable),
            (EntitlementBuilder.nonRenewing(at: now), .nonRenewable),
        ]
        for (entitlement, state) in cases {
            #expect(entitlement.isActive, "\(entitlement.productId ?? "")")
            #expect(entitlement.renewState == state)
        }
    }

    @Test func endedStatesGrantNothing() {
        let cases: [(Entitlement, RenewState)] = [
            (EntitlementBuilder.expired(at: now), .cancelled),
            (EntitlementBuilder.refunded(at: now), .cancelled),
            (EntitlementBuilder.billingIssueLapsed(at: now), .billingIssue),
            (EntitlementBuilder.refundedLifetime(at: now), .nonRenewable),
        ]
        for (entitlement, state) in cases {
            #expect(!entitlement.isActive, "\(entitlement.productId ?? "")")
            #expect(entitlement.renewState == state)
        }
    }

    @Test func datesFollowTheInstant() {
        let monthly = EntitlementBuilder.activeMonthly(at: now)
        #expect(monthly.expirationDate == RFC3339.date(from: "2025-07-15T12:00:00Z"))
        #expect(EntitlementBuilder.lifetime(at: now).expirationDate == nil)
        let grace = EntitlementBuilder.inGracePeriod(graceDays: 16, at: now)
        #expect(grace.expirationDate == RFC3339.date(from: "2025-06-30T12:00:00Z"))
        #expect(grace.gracePeriodExpirationDate == grace.expirationDate)
        #expect(EntitlementBuilder.trial(at: now).periodType == .trial)
        #expect(EntitlementBuilder.refunded(at: now).refundedAt == RFC3339.date(from: "2025-06-15T11:00:00Z"))
    }

    @Test func aSnapshotAnswersLikeAnAdaptersAndAgesByTheRules() {
        let snapshot = EntitlementBuilder.snapshot(
            [EntitlementBuilder.activeMonthly("premium", at: now), EntitlementBuilder.expired("legacy", at: now)],
            appUserId: "alice", at: now)
        #expect(snapshot.activeEntitlementIds == ["premium"])
        #expect(snapshot.appUserId == "alice")
        let later = snapshot.evaluated(at: instant("2025-07-15T12:00:00.001Z"))
        #expect(later.activeEntitlementIds.isEmpty)
        let decoded = try? EntitlementSnapshot(json: snapshot.canonicalJSONData())
        #expect(decoded == snapshot)
    }
}
