import EntitlementKit
import Foundation
import TestSupport
import Testing

/// The one rule for which grant of an entitlement wins, and the migration merge that asks it.
@Suite("Grant precedence", .timeLimit(.minutes(5)))
struct GrantPrecedenceTests {
    let now = instant("2025-06-01T12:00:00Z")
    let soon = instant("2025-07-01T00:00:00Z")
    let later = instant("2025-09-01T00:00:00Z")
    let past = instant("2025-05-01T00:00:00Z")
    let earlier = instant("2025-04-01T00:00:00Z")

    func grant(_ active: Bool, _ expiry: Date?, bought: Date? = nil) -> GrantPrecedence {
        GrantPrecedence(isActive: active, expirationDate: expiry, purchaseDate: bought)
    }

    @Test("access beats none, whatever the dates")
    func accessFirst() {
        #expect(grant(true, soon).wins(over: grant(false, nil)))
        #expect(!grant(false, nil).wins(over: grant(true, soon)))
    }

    @Test("then no expiry beats any, active or not")
    func noExpiryNext() {
        #expect(grant(true, nil).wins(over: grant(true, later)))
        #expect(!grant(true, later).wins(over: grant(true, nil)))
        #expect(grant(false, nil).wins(over: grant(false, past)))
    }

    @Test("then the later expiry, active or not")
    func laterExpiry() {
        #expect(grant(true, later).wins(over: grant(true, soon)))
        #expect(!grant(true, soon).wins(over: grant(true, later)))
        #expect(grant(false, past).wins(over: grant(false, earlier)))
    }

    @Test("then the later purchase; a full tie keeps the grant met first")
    func laterPurchaseThenFirst() {
        #expect(grant(true, soon, bought: past).wins(over: grant(true, soon, bought: earlier)))
        #expect(!grant(true, soon, bought: earlier).wins(over: grant(true, soon, bought: past)))
        #expect(grant(true, nil, bought: past).wins(over: grant(true, nil)))
        #expect(!grant(true, soon, bought: past).wins(over: grant(true, soon, bought: past)))
        #expect(!grant(false, nil).wins(over: grant(false, nil)))
    }

    @Test("an entitlement's place is its access, expiry and latest purchase")
    func entitlementPlace() {
        let renewed = Entitlement(id: "pro", latestPurchaseDate: past, expirationDate: soon, at: now)
        let first = Entitlement(id: "pro", latestPurchaseDate: earlier, expirationDate: soon, at: now)
        #expect(renewed.winsGrant(over: first))
        #expect(!first.winsGrant(over: renewed))
        let lapsed = Entitlement(id: "pro", expirationDate: past, at: now)
        #expect(first.winsGrant(over: lapsed))
    }

    @Test("the migration merge: between two lapsed grants the later expiry wins, a tie keeps the served one")
    func mergeOrdersLapsedGrants() {
        let served = EntitlementSnapshot(
            provider: .revenueCat, evaluatedAt: now,
            entitlements: [Entitlement(id: "pro", productId: "a", expirationDate: earlier, at: now)])
        let shadow = EntitlementSnapshot(
            provider: .qonversion, evaluatedAt: now,
            entitlements: [Entitlement(id: "pro", productId: "b", expirationDate: past, at: now)])
        #expect(SnapshotMerge.eitherGrants(served: served, shadow: shadow)["pro"]?.productId == "b")
        #expect(SnapshotMerge.eitherGrants(served: shadow, shadow: served)["pro"]?.productId == "b")
        #expect(SnapshotMerge.eitherGrants(served: served, shadow: served)["pro"]?.productId == "a")
    }
}
