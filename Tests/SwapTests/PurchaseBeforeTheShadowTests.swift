import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

/// A purchase made while the old backend stood alone reaches the new backend only through the store: the
/// first launch of the shadow stage asks for one sync (`needsPurchaseSync`), and that sync is what lets the
/// new backend grant access after the cut-over and the retirement. Two simulated backends share one
/// simulated store, as two real backends share the customer's App Store account.
@Suite("A purchase from before the shadow, across the whole migration", .timeLimit(.minutes(5)))
struct PurchaseBeforeTheShadowTests {
    // The product, the purchase and the instant of the anonymous buyers' stories.
    static let start = AnonymousBuyerStoriesTests.start
    static let purchase = AnonymousBuyerStoriesTests.purchase

    let store = SimulatedStore(products: [AnonymousBuyerStoriesTests.monthly], start: start)
    let old: SimulatedBackend
    let new: SimulatedBackend
    let directory = CutOverIdentityTests.CacheDirectory()
    let clock = ControllableClock(start: start)

    init() {
        old = SimulatedBackend(flavour: .revenueCat, store: store, seed: 1)
        new = SimulatedBackend(flavour: .qonversion, store: store, seed: 2)
    }

    func launch(_ provider: any EntitlementProvider) async throws -> EntitlementClient {
        try await EntitlementClient(
            provider: provider, cache: try directory.open(), deviceClock: clock, monotonicClock: clock)
    }

    /// The customer buys under the old backend alone, then the releases follow one another.
    func boughtBeforeTheShadow() async throws -> MigratingProvider {
        let alone = try await launch(old.provider())
        _ = try await alone.logIn("dave")
        _ = try await alone.recordPurchase(Self.purchase)
        #expect(await alone.checkEntitlements(.fetchCurrent).isActive("premium"))
        #expect(try await new.lookup("dave").isActive("premium") == false, "the new backend never heard of it")
        return MigratingProvider(serving: old.provider(), shadow: new.provider())
    }

    @Test func theFirstLaunchSyncOfTheShadowStageCarriesThePurchaseThroughTheCutOverAndRetirement() async throws {
        let shadowing = try await launch(try await boughtBeforeTheShadow())
        #expect(await shadowing.needsPurchaseSync, "the first launch of the shadow stage")
        _ = try await shadowing.syncPurchases(Self.purchase.receipt)
        #expect(await shadowing.needsPurchaseSync == false)
        #expect(try await new.lookup("dave").isActive("premium"), "the sync reached the shadow")

        let cutOver = try await launch(MigratingProvider(serving: new.provider(), shadow: old.provider()))
        #expect(await cutOver.appUserId == "dave")
        #expect(await cutOver.checkEntitlements(.fetchCurrent).isActive("premium"))
        let retired = try await launch(new.provider())
        #expect(await retired.checkEntitlements(.fetchCurrent).isActive("premium"))
    }

    @Test func withoutTheSyncTheNewBackendAloneDoesNotKnowThePurchase() async throws {
        // The same story with the sync skipped: what the sync is for. The cut-over's own first launch
        // asks again, and a sync then still saves the customer.
        let shadowing = try await launch(try await boughtBeforeTheShadow())
        #expect(await shadowing.needsPurchaseSync)
        let retiredTooSoon = try await launch(new.provider())
        #expect(await retiredTooSoon.checkEntitlements(.fetchCurrent).isActive("premium") == false)
        #expect(await retiredTooSoon.needsPurchaseSync, "the retirement's first launch asks")
        _ = try await retiredTooSoon.syncPurchases(Self.purchase.receipt)
        #expect(await retiredTooSoon.checkEntitlements(.fetchCurrent).isActive("premium"))
    }
}
