import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

/// `Transaction.updates` reaching the app: a renewal and a refund the store pushes appear in the client's
/// update stream with no check by the app. Waits are bounded by the suite's time limit.
@Suite("StoreKit 2 on the device: pushed changes", .timeLimit(.minutes(5)))
struct OnDevicePushTests {
    @Test("a pushed renewal and a pushed refund reach updates()")
    func renewalAndRefundReachUpdates() async throws {
        let world = try OnDeviceWorld()
        let client = try await world.launch()
        _ = try await world.buy("monthly", on: client)
        _ = try await world.buy("maps", on: client)
        var updates = client.updates().makeAsyncIterator()
        let current = try #require(await updates.next())
        #expect(current.activeEntitlementIds == ["maps", "premium"])

        world.advance("P1M")  // the store renews and pushes the renewal
        var renewed = try #require(await updates.next())
        while renewed["premium"]?.expirationDate != instant("2025-03-01T00:00:00Z") {
            renewed = try #require(await updates.next())  // an earlier push may answer first
        }
        #expect(renewed.verification == .verified)

        world.store.storeEvent(.refund, storeAccount: "apple-1", productId: "maps")
        var refunded = try #require(await updates.next())
        while refunded.isActive("maps") { refunded = try #require(await updates.next()) }
        #expect(refunded.activeEntitlementIds == ["premium"])
    }

    @Test("the provider's signals end when the client is released: the store's listener is dropped")
    func signalsEndWithTheClient() async throws {
        let world = try OnDeviceWorld()
        var client: EntitlementClient? = try await world.launch()
        let updates = try #require(client?.updates())
        client = nil
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}
