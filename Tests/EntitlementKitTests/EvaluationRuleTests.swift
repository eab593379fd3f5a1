import EntitlementKit
import Foundation
import TestSupport
import Testing

@Suite("The unified activity rule", .timeLimit(.minutes(5)))
struct EvaluationRuleTests {
    let expiry = instant("2025-06-01T12:00:00Z")

    @Test("no expiration date is lifetime access")
    func lifetimeIsActive() {
        #expect(Entitlement.isActive(expirationDate: nil, denial: nil, at: instant("2999-01-01T00:00:00Z")))
        #expect(Entitlement(id: "lifetime", at: instant("2030-01-01T00:00:00Z")).isActive)
    }

    @Test("access holds exactly at the expiry instant")
    func inclusiveBoundary() {
        #expect(Entitlement.isActive(expirationDate: expiry, denial: nil, at: expiry))
        #expect(Entitlement(id: "pro", expirationDate: expiry, at: expiry).isActive)
    }

    @Test("access ends one second, and one millisecond, after expiry")
    func afterExpiry() {
        #expect(!Entitlement.isActive(expirationDate: expiry, denial: nil, at: expiry.addingTimeInterval(1)))
        #expect(!Entitlement.isActive(expirationDate: expiry, denial: nil, at: instant("2025-06-01T12:00:00.001Z")))
        #expect(Entitlement.isActive(expirationDate: expiry, denial: nil, at: expiry.addingTimeInterval(-1)))
    }

    @Test("a denial denies access even before expiry and without one")
    func denialDenies() {
        let denial = Denial(.vendorInactive, raw: "0")
        #expect(!Entitlement.isActive(expirationDate: expiry, denial: denial, at: expiry.addingTimeInterval(-86_400)))
        #expect(!Entitlement.isActive(expirationDate: nil, denial: denial, at: expiry))
        #expect(!Entitlement(id: "pro", expirationDate: expiry, denial: denial, at: expiry).isActive)
    }

    @Test("re-evaluating later lapses an expired entitlement and keeps a paid-through one")
    func evaluatedLater() {
        let made = instant("2025-05-01T00:00:00Z")
        let snapshot = EntitlementSnapshot(
            provider: ProviderID(rawValue: "test"), evaluatedAt: made,
            entitlements: [
                Entitlement(id: "monthly", expirationDate: expiry, at: made),
                Entitlement(id: "lifetime", at: made),
            ])
        #expect(snapshot.activeEntitlementIds == ["lifetime", "monthly"])

        let atExpiry = snapshot.evaluated(at: expiry)
        #expect(atExpiry.evaluatedAt == expiry)
        #expect(atExpiry.activeEntitlementIds == ["lifetime", "monthly"])

        let dayAfter = snapshot.evaluated(by: FixedClock(expiry.addingTimeInterval(86_400)))
        #expect(dayAfter.activeEntitlementIds == ["lifetime"])
        #expect(dayAfter["monthly"]?.isActive == false)
    }

    @Test("re-evaluation never grants access the backend revoked, at any instant")
    func evaluationDoesNotRegrant() {
        let made = instant("2025-05-01T00:00:00Z")
        let revoked = Entitlement(id: "pro", expirationDate: expiry, denial: Denial(.revoked), at: made)
        #expect(!revoked.isActive)
        #expect(!revoked.evaluated(at: made.addingTimeInterval(-86_400)).isActive)
        let refundedLifetime = Entitlement(id: "lifetime", denial: Denial(.refunded), at: made)
        #expect(!refundedLifetime.evaluated(at: instant("2030-01-01T00:00:00Z")).isActive)
    }

    @Test("a decoded snapshot re-evaluates like the one it was encoded from")
    func cachedSnapshotEvaluatesLikeFresh() throws {
        let snapshot = goldenSnapshot()
        let cached = try EntitlementSnapshot(json: snapshot.canonicalJSONData())
        for offset: TimeInterval in [0, 1, 86_400, 3_456_000, 34_560_000] {
            let later = snapshot.evaluatedAt.addingTimeInterval(offset)
            #expect(cached.evaluated(at: later) == snapshot.evaluated(at: later))
        }
    }

    @Test("willRenew is exactly renewState == willRenew")
    func willRenewFollowsRenewState() {
        let now = instant("2025-01-01T00:00:00Z")
        for state in RenewState.knownValues + [RenewState(rawValue: "winBack")] {
            #expect(Entitlement(id: "e", renewState: state, at: now).willRenew == (state == .willRenew))
        }
    }
}
