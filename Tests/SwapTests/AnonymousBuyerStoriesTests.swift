import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

/// Anonymous buyers keep their purchases across a swap (swap.md "Identity"): two simulated backends (the old,
/// RevenueCat-like; the new, Qonversion-like), a real cache directory, and the migration's configurations
/// launched in turn as app releases would.
@Suite("Anonymous buyers across a swap", .timeLimit(.minutes(5)))
struct AnonymousBuyerStoriesTests {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)
    static let monthly = ScenarioProduct(
        id: "premium.monthly", kind: .autoRenewable(period: ISODuration(months: 1), trial: nil, gracePeriod: nil),
        entitlements: ["premium"])
    static let purchase = StorePurchase(
        receipt: StoreReceipt(store: .appStore, token: "store-account-1"), productId: monthly.id)

    let old = SimulatedBackend(flavour: .revenueCat, products: [monthly], start: start, seed: 1)
    let new = SimulatedBackend(flavour: .qonversion, products: [monthly], start: start, seed: 2)
    let directory = CutOverIdentityTests.CacheDirectory()
    /// The device's clocks, at the backends' true time.
    let clock = ControllableClock(start: start)

    func launch(_ provider: any EntitlementProvider) async throws -> EntitlementClient {
        try await EntitlementClient(
            provider: provider, cache: try directory.open(), deviceClock: clock, monotonicClock: clock)
    }

    func servingOld(_ policy: MigratingProvider.Policy = .serving) -> MigratingProvider {
        MigratingProvider(serving: old.provider(), shadow: new.provider(), policy: policy)
    }

    func servingNew(_ policy: MigratingProvider.Policy = .serving) -> MigratingProvider {
        MigratingProvider(serving: new.provider(), shadow: old.provider(), policy: policy)
    }

    @Test func anAnonymousPurchaseOnTheCutOverConfigurationSurvivesARollBack() async throws {
        let cutOver = try await launch(servingNew())
        #expect(await cutOver.isAnonymous)
        _ = try await cutOver.recordPurchase(Self.purchase)
        #expect(await cutOver.checkEntitlements(.fetchCurrent).isActive("premium"))

        let rolledBack = try await launch(servingOld())
        #expect(await rolledBack.isAnonymous)
        #expect(
            await rolledBack.checkEntitlements(.fetchCurrent).isActive("premium"),
            "the old backend heard of the purchase under the anonymous id it knows this device by")
    }

    @Test func anAnonymousBuyerWhoLogsInLinksTheIdThatBoughtOnBothBackends() async throws {
        let cutOver = try await launch(servingNew())
        _ = try await cutOver.recordPurchase(Self.purchase)
        let oldAnonymous = try #require(
            await directory.open().partition(for: old.provider()).storedAppUserId(),
            "the old backend's part holds its own anonymous id")
        _ = try await cutOver.logIn("carol")
        #expect(await cutOver.checkEntitlements(.fetchCurrent).isActive("premium"))

        #expect(await old.aliases(of: "carol").contains(oldAnonymous), "carol's logIn came from the id that bought")
        #expect(try await old.lookup("carol").isActive("premium"))
        let rolledBack = try await launch(servingOld())
        #expect(await rolledBack.appUserId == "carol")
        #expect(await rolledBack.checkEntitlements(.fetchCurrent).isActive("premium"))
    }

    @Test(arguments: [MigratingProvider.Policy.serving, .eitherGrants])
    func anAnonymousPurchaseWhileServingTheOldBackendHasAccessOnTheNewOneAfterTheCutOver(
        policy: MigratingProvider.Policy
    ) async throws {
        let shadowing = try await launch(servingOld(policy))
        _ = try await shadowing.recordPurchase(Self.purchase)
        #expect(await shadowing.checkEntitlements(.fetchCurrent).isActive("premium"))

        let cutOver = try await launch(servingNew(policy))
        #expect(await cutOver.needsPurchaseSync, "the first launch of the cut-over")
        #expect(await cutOver.checkEntitlements(.fetchCurrent).isActive("premium"))
        _ = try await cutOver.syncPurchases(Self.purchase.receipt)
        #expect(await cutOver.checkEntitlements(.fetchCurrent).isActive("premium"))
        #expect(await cutOver.needsPurchaseSync == false)
        #expect(try await launch(new.provider()).checkEntitlements(.fetchCurrent).isActive("premium"), "retired")
    }
}
