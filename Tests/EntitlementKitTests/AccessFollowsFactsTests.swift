import EntitlementKit
import Foundation
import TestSupport
import Testing

/// Access is computed from stored facts (expiry, the denial, the instant), so no change to a snapshot
/// or an entitlement, and no re-evaluation at any instant, can leave `isActive` disagreeing with them.
@Suite("Access follows the facts", .timeLimit(.minutes(5)))
struct AccessFollowsFactsTests {
    /// Before every expiry.
    let early = instant("2025-05-01T00:00:00Z")
    /// The monthly subscription's expiry.
    let monthlyExpiry = instant("2025-06-01T12:00:00Z")
    /// When the snapshot was first evaluated: the monthly has lapsed, the yearly has not.
    let made = instant("2025-07-01T00:00:00Z")
    /// The yearly subscription's expiry.
    let yearlyExpiry = instant("2025-12-01T00:00:00Z")

    func snapshot() -> EntitlementSnapshot {
        EntitlementSnapshot(
            provider: .revenueCat, appUserId: "alice", evaluatedAt: made,
            entitlements: [
                Entitlement(id: "monthly", expirationDate: monthlyExpiry, at: made),
                Entitlement(id: "yearly", expirationDate: yearlyExpiry, at: made),
                Entitlement(
                    id: "refunded", expirationDate: yearlyExpiry, denial: Denial(.refunded, raw: "REFUND_FULL"),
                    at: made),
                Entitlement(id: "lifetime", at: made),
                Entitlement(id: "refundedLifetime", denial: Denial(.refunded), at: made),
            ])
    }

    /// What the rule says at each instant, written out by hand.
    var expectedActive: [(Date, [String])] {
        [
            (.distantPast, ["lifetime", "monthly", "yearly"]),
            (early, ["lifetime", "monthly", "yearly"]),
            (monthlyExpiry, ["lifetime", "monthly", "yearly"]),
            (monthlyExpiry.addingTimeInterval(0.001), ["lifetime", "yearly"]),
            (made, ["lifetime", "yearly"]),
            (yearlyExpiry, ["lifetime", "yearly"]),
            (yearlyExpiry.addingTimeInterval(0.001), ["lifetime"]),
            (.distantFuture, ["lifetime"]),
        ]
    }

    @Test("changing an entitlement's expiry after creation changes its access")
    func entitlementFollowsItsExpiry() {
        var yearly = Entitlement(id: "yearly", expirationDate: yearlyExpiry, at: made)
        #expect(yearly.isActive)
        yearly.expirationDate = monthlyExpiry
        #expect(!yearly.isActive)
        yearly.expirationDate = nil
        #expect(yearly.isActive)
        yearly.denial = Denial(.revoked)
        #expect(!yearly.isActive)
    }

    @Test("changing a snapshot's entitlement changes the snapshot's answers, and the snapshot still reads back")
    func snapshotFollowsItsEntitlements() throws {
        var snapshot = snapshot()
        var yearly = try #require(snapshot["yearly"])
        yearly.expirationDate = monthlyExpiry
        let replaced = snapshot.updateEntitlement(yearly)
        #expect(replaced?.isActive == true)
        #expect(!snapshot.isActive("yearly"))
        #expect(snapshot.activeEntitlementIds == ["lifetime"])
        let reread = try EntitlementSnapshot(json: snapshot.canonicalJSONData())
        #expect(reread.activeEntitlementIds == ["lifetime"])
        #expect(reread == snapshot)

        snapshot.removeEntitlement(id: "lifetime")
        #expect(snapshot.activeEntitlementIds == [])
        #expect(!snapshot.hasActiveEntitlement)
    }

    @Test("an entitlement made at another instant is judged at the snapshot's instant")
    func entitlementsTakeTheSnapshotsInstant() {
        let madeEarly = Entitlement(id: "monthly", expirationDate: monthlyExpiry, at: early)
        #expect(madeEarly.isActive)
        var snapshot = EntitlementSnapshot(provider: .qonversion, evaluatedAt: made, entitlements: [madeEarly])
        #expect(snapshot["monthly"]?.evaluatedAt == made)
        #expect(!snapshot.isActive("monthly"))
        snapshot.removeEntitlement(id: "monthly")
        snapshot.updateEntitlement(madeEarly)
        #expect(snapshot["monthly"]?.evaluatedAt == made)
        #expect(snapshot.activeEntitlementIds == [])
    }

    @Test("every key is its entitlement's id, however the snapshot was changed")
    func keysAreIds() throws {
        var snapshot = snapshot()
        var renamed = try #require(snapshot["yearly"])
        renamed.id = "gold"
        snapshot.updateEntitlement(renamed)
        let duplicate = Entitlement(id: "lifetime", expirationDate: monthlyExpiry, at: made)
        snapshot.updateEntitlement(duplicate)
        #expect(snapshot.entitlements.allSatisfy { key, entitlement in key == entitlement.id })
        #expect(
            snapshot.entitlements.keys.sorted() == [
                "gold", "lifetime", "monthly", "refunded", "refundedLifetime", "yearly",
            ])
        #expect(snapshot["lifetime"]?.expirationDate == monthlyExpiry)
        #expect(snapshot.activeEntitlementIds == ["gold", "yearly"])
        let twice = EntitlementSnapshot(
            provider: .revenueCat, evaluatedAt: made,
            entitlements: [
                Entitlement(id: "pro", at: made), Entitlement(id: "pro", denial: Denial(.revoked), at: made),
            ])
        #expect(twice.entitlements.count == 1)
        #expect(twice["pro"]?.denial == Denial(.revoked))
    }

    @Test("re-evaluation is exact at any instant, earlier or later than the first")
    func evaluationIsExactBothWays() {
        let snapshot = snapshot()
        for (instant, active) in expectedActive {
            let judged = snapshot.evaluated(at: instant)
            #expect(judged.activeEntitlementIds == active, "at \(RFC3339.string(from: instant))")
            #expect(judged.evaluatedAt == instant)
            #expect(judged.entitlements.values.allSatisfy { $0.evaluatedAt == instant })
        }
        // A snapshot judged at a too-late instant (a device clock set forward) answers the corrected, earlier
        // instant as if it had been made then.
        let ahead = snapshot.evaluated(at: .distantFuture)
        #expect(ahead.activeEntitlementIds == ["lifetime"])
        #expect(ahead.evaluated(at: early) == snapshot.evaluated(at: early))
        #expect(ahead.evaluated(at: early).activeEntitlementIds == ["lifetime", "monthly", "yearly"])
    }

    @Test("a snapshot read back from its canonical JSON answers every instant, earlier or later, as the original")
    func roundTripThenEvaluate() throws {
        let snapshot = snapshot()
        let decoded = try EntitlementSnapshot(json: snapshot.canonicalJSONData())
        #expect(decoded == snapshot)
        for (instant, active) in expectedActive {
            #expect(
                decoded.evaluated(at: instant).activeEntitlementIds == active, "at \(RFC3339.string(from: instant))")
            #expect(decoded.evaluated(at: instant) == snapshot.evaluated(at: instant))
        }
    }

    @Test("the denial is written and read back in schema 3, before and after the expiry")
    func denialRoundTrips() throws {
        let json = snapshot().canonicalJSON()
        #expect(json.contains(#""denial": {\#n        "code": "refunded",\#n        "raw": "REFUND_FULL"\#n      }"#))
        let decoded = try EntitlementSnapshot(json: Data(json.utf8))
        #expect(decoded["refunded"]?.denial == Denial(.refunded, raw: "REFUND_FULL"))
        #expect(decoded["refundedLifetime"]?.denial == Denial(.refunded))
        #expect(decoded["monthly"]?.denial == nil)
        #expect(decoded.evaluated(at: early).isActive("refunded") == false)
        #expect(decoded.evaluated(at: .distantFuture).isActive("refundedLifetime") == false)
    }

    @Test("schema 3 has no ambiguity: a denial past the expiry is kept, so an earlier instant still denies")
    func deniedPastExpiryStaysDenied() throws {
        let deniedAndExpired = EntitlementSnapshot(
            provider: .qonversion, evaluatedAt: made,
            entitlements: [
                Entitlement(
                    id: "monthly", expirationDate: monthlyExpiry, denial: Denial(.vendorInactive, raw: "0"), at: made)
            ])
        let decoded = try EntitlementSnapshot(json: deniedAndExpired.canonicalJSONData())
        #expect(decoded == deniedAndExpired)
        #expect(decoded["monthly"]?.denial == Denial(.vendorInactive, raw: "0"))
        #expect(decoded.evaluated(at: early).activeEntitlementIds == [])
    }
}
