import EntitlementKit
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

/// Several simulated backends over one simulated store, as two real backends see the same Apple receipt:
/// a migration test can restore on the new backend what was bought through the old.
@Suite("Simulated store shared by backends", .timeLimit(.minutes(5)))
struct SharedStoreMigrationTests {
    static let start = instant("2025-01-01T00:00:00Z")
    static let products = [
        ScenarioProduct(
            id: "monthly", kind: .autoRenewable(period: ISODuration(months: 1), trial: nil, gracePeriod: nil),
            entitlements: ["premium"]),
        ScenarioProduct(id: "coins", kind: .consumable),
    ]
    static let receipt = StoreReceipt(store: .appStore, token: "apple-1")

    @Test("a purchase through RevenueCat is restored through Adapty on the same store, and keeps renewing there")
    func restoreOnTheNewBackend() async throws {
        let store = SimulatedStore(products: Self.products, start: Self.start)
        let old = SimulatedBackend(flavour: .revenueCat, store: store)
        let new = SimulatedBackend(flavour: .adapty, store: store)
        let cache = InMemoryEntitlementCache()
        let clock = ControllableClock(start: Self.start)

        // This release: RevenueCat.
        let before = try await EntitlementClient(
            provider: old.provider(), cache: cache, appUserId: "alice", deviceClock: clock, monotonicClock: clock)
        _ = try await before.recordPurchase(StorePurchase(receipt: Self.receipt, productId: "monthly"))
        #expect(await before.checkEntitlements().isActive("premium"))

        // The next release: Adapty, which has never heard of alice until the app restores.
        let after = try await EntitlementClient(
            provider: new.provider(), cache: cache, appUserId: "alice", deviceClock: clock, monotonicClock: clock)
        #expect(!(await after.checkEntitlements(.fetchCurrent).isActive("premium")))
        let restored = try await after.restorePurchases(Self.receipt)
        #expect(restored.activeEntitlementIds == ["premium"])

        // One store: a renewal and a store event reach both backends.
        store.advance(by: ISODuration(months: 1))
        clock.advance(by: ISODuration(months: 1))
        #expect(try await new.lookup("alice")["premium"]?.expirationDate == RFC3339.date(from: "2025-03-01T00:00:00Z"))
        #expect(try await old.lookup("alice")["premium"]?.expirationDate == RFC3339.date(from: "2025-03-01T00:00:00Z"))
        await new.storeEvent(.refund, storeAccount: "apple-1", productId: "monthly")
        store.advance(by: ISODuration(milliseconds: 1000))
        #expect(try await old.lookup("alice").activeEntitlementIds == [])
    }

    @Test("a store of its own per backend (the default) shares nothing: the restore finds no purchase")
    func separateStoresShareNothing() async throws {
        let old = SimulatedBackend(flavour: .revenueCat, products: Self.products, start: Self.start)
        let new = SimulatedBackend(flavour: .adapty, products: Self.products, start: Self.start)
        _ = try await old.provider().reportPurchase(
            StorePurchase(receipt: Self.receipt, productId: "monthly"), for: "alice")
        let restored = try await new.provider().syncPurchases(Self.receipt, for: "alice")
        #expect(restored.activeEntitlementIds == [])
    }

    @Test("a direct purchase stays with the backend it was bought through: only the receipt is shared")
    func directPurchasesAreNotOnTheReceipt() async throws {
        let store = SimulatedStore(products: Self.products, start: Self.start)
        let old = SimulatedBackend(flavour: .revenueCat, store: store)
        let new = SimulatedBackend(flavour: .qonversion, store: store)
        _ = try await old.provider().reportPurchase(
            StorePurchase(receipt: Self.receipt, productId: "coins"), for: "alice")
        #expect(try await old.lookup("alice").nonSubscriptionTransactions.count == 1)
        _ = try await new.provider().syncPurchases(Self.receipt, for: "alice")
        #expect(try await new.lookup("alice").nonSubscriptionTransactions.isEmpty)
    }

    @Test("an anonymous RevenueCat customer is not anonymous to the simulated Adapty: it makes its own id")
    func adaptysAnonymousFormIsItsOwn() async throws {
        let store = SimulatedStore(products: Self.products, start: Self.start)
        let old = SimulatedBackend(flavour: .revenueCat, store: store).provider()
        let new = SimulatedBackend(flavour: .adapty, store: store).provider()
        let anonymous = old.makeAnonymousAppUserId()
        #expect(old.isAnonymous(anonymous))
        #expect(!new.isAnonymous(anonymous))
        #expect(new.isAnonymous(new.makeAnonymousAppUserId()))
    }
}
