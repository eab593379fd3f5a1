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

    @Test("the migration merge (swap.md): the active one, then the later expiry; anything else keeps the served one")
    func mergeKeepsTheServedGrantOnATie() {
        func snapshot(_ provider: ProviderID, _ product: String, expires: Date?, bought: Date? = nil)
            -> EntitlementSnapshot
        {
            EntitlementSnapshot(
                provider: provider, evaluatedAt: now,
                entitlements: [
                    Entitlement(
                        id: "pro", productId: product, latestPurchaseDate: bought, expirationDate: expires, at: now)
                ])
        }
        func merged(_ served: EntitlementSnapshot, _ shadow: EntitlementSnapshot) -> String? {
            SnapshotMerge.eitherGrants(served: served, shadow: shadow)["pro"]?.productId
        }
        // Two lapsed grants: a tie on access, whatever their dates.
        #expect(merged(snapshot(.revenueCat, "a", expires: earlier), snapshot(.qonversion, "b", expires: past)) == "a")
        #expect(merged(snapshot(.qonversion, "b", expires: past), snapshot(.revenueCat, "a", expires: earlier)) == "b")
        // One expiry, a later purchase in the shadow: still a tie.
        let served = snapshot(.revenueCat, "a", expires: later, bought: earlier)
        let shadow = snapshot(.qonversion, "b", expires: later, bought: past)
        #expect(merged(served, shadow) == "a")
        // Between active grants the later expiry wins, and no expiry beats any.
        #expect(merged(snapshot(.revenueCat, "a", expires: soon), snapshot(.qonversion, "b", expires: later)) == "b")
        #expect(merged(snapshot(.revenueCat, "a", expires: later), snapshot(.qonversion, "b", expires: nil)) == "b")
    }

    @Test("a ledger's merge of its sources: between two lapsed grants the later expiry wins, a tie keeps the first")
    func ledgerMergeOrdersLapsedGrants() {
        let first = EntitlementSnapshot(
            provider: .appStore, evaluatedAt: now,
            entitlements: [Entitlement(id: "pro", productId: "a", expirationDate: earlier, at: now)])
        let next = EntitlementSnapshot(
            provider: .appStore, evaluatedAt: now,
            entitlements: [Entitlement(id: "pro", productId: "b", expirationDate: past, at: now)])
        #expect(SnapshotMerge.latestAccess(first: first, then: next)["pro"]?.productId == "b")
        #expect(SnapshotMerge.latestAccess(first: next, then: first)["pro"]?.productId == "b")
        #expect(SnapshotMerge.latestAccess(first: first, then: first)["pro"]?.productId == "a")
    }
}
