import EntitlementKit
import Foundation
import Testing

/// A backend's "something changed" signals (`EntitlementProvider.makeChangeSignals()`) reach the app's update
/// streams through the client's refetch. Waits are the suite's time limit: a signal the client ignored
/// leaves `next()` waiting until it fails.
@Suite("Client change signals", .timeLimit(.minutes(5)))
struct ChangeSignalTests {
    @Test("a renewal and a refund the backend pushes reach updates() without a check by the app")
    func pushedRenewalAndRefundReachUpdates() async throws {
        let device = TestDevice(pushesChanges: true)
        let start = device.time.now
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(day))
        let client = try await device.launch(appUserId: "alice")
        var updates = client.updates().makeAsyncIterator()
        _ = await client.checkEntitlements()
        let first = try #require(await updates.next())
        #expect(first["premium"]?.expirationDate == start.addingTimeInterval(day))

        // The store renews the subscription: the app is told without asking.
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(2 * day))
        device.backend.pushChange()
        let renewed = try #require(await updates.next())
        #expect(renewed.activeEntitlementIds == ["premium"])
        #expect(renewed["premium"]?.expirationDate == start.addingTimeInterval(2 * day))

        // The store refunds it.
        device.backend.revokeAll(from: "alice")
        device.backend.pushChange()
        let refunded = try #require(await updates.next())
        #expect(refunded.activeEntitlementIds == [])
        #expect(await client.updateCount == 3)
        #expect(await client.checkEntitlements(.fromCacheOnly).isActive("premium") == false, "the refetch is cached")
    }

    @Test("the provider's signal stream is cancelled when the client is released, and the updates end")
    func signalsEndWithTheClient() async throws {
        let device = TestDevice(pushesChanges: true)
        device.backend.grant("premium", to: "alice", until: nil)
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        #expect(device.backend.openChangeListeners == 1)
        let updates = client?.updates()
        device.backend.pushChange()  // the client fetches: the stream yields premium
        var iterator = try #require(updates).makeAsyncIterator()
        #expect(await iterator.next()?.activeEntitlementIds == ["premium"])

        client = nil
        var endings = device.backend.changeListenerEndings.makeAsyncIterator()
        _ = await endings.next()  // the client's release cancelled its listener
        #expect(device.backend.openChangeListeners == 0)
        #expect(await iterator.next() == nil, "the update stream ends with the client")
    }

    @Test("a relaunched client listens again; each client has its own signal stream")
    func eachClientListens() async throws {
        let device = TestDevice(pushesChanges: true)
        device.backend.grant("premium", to: "alice", until: nil)
        let first = try await device.launch(appUserId: "alice")
        let second = try await device.relaunch()
        #expect(device.backend.openChangeListeners == 2)
        var firstUpdates = first.updates().makeAsyncIterator()
        var secondUpdates = second.updates().makeAsyncIterator()
        device.backend.pushChange()
        #expect(await firstUpdates.next()?.activeEntitlementIds == ["premium"])
        #expect(await secondUpdates.next()?.activeEntitlementIds == ["premium"])
    }

    @Test("MigratingProvider passes on its serving backend's signals")
    func migratingProviderForwardsTheServingBackend() async throws {
        let time = TestTime()
        let serving = TestProvider(time: time, pushesChanges: true)
        let shadow = TestProvider(time: time, provider: .qonversion)
        serving.grant("premium", to: "alice", until: nil)
        let client = try await EntitlementClient(
            provider: MigratingProvider(serving: serving, shadow: shadow), cache: InMemoryEntitlementCache(),
            appUserId: "alice", deviceClock: time.device, monotonicClock: time.monotonic)
        #expect(serving.openChangeListeners == 1)
        var updates = client.updates().makeAsyncIterator()
        serving.pushChange()
        #expect(await updates.next()?.activeEntitlementIds == ["premium"])
    }
}
