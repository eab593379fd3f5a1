import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

@Suite("StoreKit 2 on the device: a subscription's life", .timeLimit(.minutes(5)))
struct OnDeviceStoryTests {
    @Test("purchase, renewal, billing issue, refund and expiry: every answer verified against the test root")
    func aSubscriptionsLife() async throws {
        let world = try OnDeviceWorld()
        let client = try await world.launch()

        // Purchase: the reported JWS counts at once.
        let bought = try await world.buy("monthly", on: client)
        #expect(bought.activeEntitlementIds == ["premium"])
        #expect(bought.verification == .verified)
        #expect(bought["premium"]?.expirationDate == instant("2025-02-01T00:00:00Z"))
        #expect(bought["premium"]?.renewState == .willRenew)

        // Renewal at the period end.
        world.advance("P1M")
        let renewed = try #require(await client.checkEntitlements(.fetchCurrent).snapshot)
        #expect(renewed.verification == .verified)
        #expect(renewed["premium"]?.expirationDate == instant("2025-03-01T00:00:00Z"))
        #expect(renewed["premium"]?.isActive == true)

        // A lifetime purchase beside it, then a billing issue on the subscription: access to the grace end.
        _ = try await world.buy("maps", on: client)
        world.advance("P10D")
        world.store.storeEvent(.billingIssue, storeAccount: "apple-1", productId: "monthly")
        let troubled = try #require(await client.checkEntitlements(.fetchCurrent).snapshot)
        #expect(troubled.verification == .verified)
        #expect(troubled.activeEntitlementIds == ["maps", "premium"])
        #expect(troubled["premium"]?.renewState == .billingIssue)
        #expect(troubled["premium"]?.expirationDate == instant("2025-03-04T00:00:00Z"))

        // Refund of the lifetime purchase: StoreKit no longer lists it.
        world.store.storeEvent(.refund, storeAccount: "apple-1", productId: "maps")
        let refunded = try #require(await client.checkEntitlements(.fetchCurrent).snapshot)
        #expect(refunded.verification == .verified)
        #expect(refunded.activeEntitlementIds == ["premium"])

        // Expiry: past the grace period, offline — the cached answer lapses on the trusted instant.
        world.source.isOnline = false
        world.advance("P21DT1S")  // Feb 11 → Mar 4, 1 s past the grace end
        let lapsed = await client.checkEntitlements()
        #expect(lapsed.error?.code == .offline)
        #expect(lapsed.source == .cache)
        #expect(lapsed.snapshot?.activeEntitlementIds == [])
        world.source.isOnline = true
        let online = await client.checkEntitlements(.fetchCurrent)
        #expect(online.snapshot?.activeEntitlementIds == [])
        #expect(online.error == nil)
    }

    @Test("a restore syncs the store and answers what the account owns, for any app user on the device")
    func restoreAndIdentity() async throws {
        let world = try OnDeviceWorld()
        let client = try await world.launch()
        _ = try await world.buy("maps", on: client)
        _ = try await client.logIn("bob")
        #expect(await client.checkEntitlements(.fetchCurrent).isActive("maps"), "the device's purchases, for bob too")
        let restored = try await client.restorePurchases(StoreReceipt(store: .appStore, token: ""))
        #expect(restored.activeEntitlementIds == ["maps"])
        #expect(world.source.syncCount == 1)
        try await client.logOut()
        #expect(await client.isAnonymous)
        #expect(await client.appUserId == (await client.appUserId).lowercased())
        #expect(await client.checkEntitlements().isActive("maps"))
    }

    @Test("the trusted instant rises to a verified JWS's signedDate: a device clock set back a year changes nothing")
    func signedDateRaisesTheTrustedInstant() async throws {
        let world = try OnDeviceWorld()
        let client = try await world.launch()
        _ = try await world.buy("monthly", on: client)
        world.advance("P40D")  // renewed (and signed) on Feb 1
        // A fresh install whose clock reads a year early: only the JWS's signedDate tells it the time.
        let early = ControllableClock(start: world.clock.trueTime, offset: ISODuration(months: -12))
        let fresh = try await EntitlementClient(
            provider: world.provider, cache: InMemoryEntitlementCache(), appUserId: "alice", deviceClock: early,
            monotonicClock: early)
        let check = await fresh.checkEntitlements()
        #expect(check.snapshot?.verification == .verified)
        #expect(check.snapshot?.evaluatedAt == instant("2025-02-01T00:00:00Z"))
        _ = client
    }
}
