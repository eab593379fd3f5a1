import EntitlementKit
import Foundation
import Testing

@Suite("Client updates stream", .timeLimit(.minutes(5)))
struct UpdatesTests {
    /// The active entitlement ids of everything `stream` yields, until it ends (its client was released).
    static func activeIds(yieldedBy stream: EntitlementUpdates?) async -> [[String]] {
        var yielded: [[String]] = []
        if let stream {
            for await snapshot in stream { yielded.append(snapshot.activeEntitlementIds) }
        }
        return yielded
    }

    @Test("yields the first answer, then only answers that differ, ignoring requestDate and evaluatedAt")
    func yieldsOnChangeOnly() async throws {
        let device = TestDevice()
        let start = device.time.now
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(day))
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        let stream = client?.updates()
        #expect(await client?.updateCount == 0)  // configuring yields nothing

        _ = await client?.checkEntitlements()  // 1: the first answer
        _ = await client?.checkEntitlements()  // the same, from the cache
        device.time.advance(10 * minute)
        _ = await client?.checkEntitlements()  // the same access with a newer requestDate and evaluatedAt
        #expect(await client?.updateCount == 1)

        device.backend.goOffline()
        _ = await client?.checkEntitlements(.notStaleCachedOrFetched)  // a failure without a snapshot
        #expect(await client?.updateCount == 1)

        device.time.advance(day)
        _ = await client?.checkEntitlements()  // 2: premium lapsed (offline, from the cache)
        device.backend.succeed()
        device.backend.grant("gold", to: "alice", until: nil)
        _ = await client?.checkEntitlements()  // 3: gold added
        _ = await client?.cachedSnapshot()  // not an answer to publish
        #expect(await client?.updateCount == 3)

        client = nil  // the stream ends with the client
        let yielded = await Self.activeIds(yieldedBy: stream)
        #expect(yielded == [["premium"], [], ["gold"]])
    }

    @Test("a stream made after an answer starts with it at once, then yields only changes")
    func aLateStreamReplaysTheCurrentAnswer() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        _ = await client?.checkEntitlements()
        let late = client?.updates()  // made after the answer: no further check runs before it is read
        client = nil
        let yielded = await Self.activeIds(yieldedBy: late)
        #expect(yielded == [["premium"]], "the README's `for await` loop must not wait for the next change")
    }

    @Test("the replayed answer counts as yielded: the same answer again is not yielded twice")
    func theReplayCountsAsYielded() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        _ = await client?.checkEntitlements()
        let late = client?.updates()
        _ = await client?.checkEntitlements(.fetchCurrent)
        _ = await client?.checkEntitlements(.fetchCurrent)
        #expect(await client?.updateCount == 1)
        client = nil
        var count = 0
        if let late {
            for await _ in late { count += 1 }
        }
        #expect(count == 1)
    }

    @Test("after the customer changes, a new stream never starts with the previous customer's answer")
    func noReplayAcrossCustomers() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        _ = await client?.checkEntitlements()
        try await client?.logOut()
        let stream = client?.updates()
        client = nil
        let yielded = await Self.activeIds(yieldedBy: stream)
        #expect(yielded.isEmpty, "alice's premium must not reach the anonymous customer's stream")
    }

    @Test(
        "a replay is evaluated now, never before its answer plus the time elapsed since: an expiry passed since has lapsed, even with the device clock set back",
        arguments: [0, -10 * minute])
    func theReplayIsEvaluatedNow(deviceClockOffset: TimeInterval) async throws {
        let device = TestDevice()
        let start = device.time.now
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(minute))
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        _ = await client?.checkEntitlements()
        device.time.advance(2 * minute)
        device.time.setDeviceOffset(deviceClockOffset)  // -10 min: the device clock reads before the expiry
        let late = client?.updates()
        client = nil
        let yielded = await Self.activeIds(yieldedBy: late)
        #expect(yielded == [[]])
    }

    @Test("after a relaunch, a stream made before any check starts with the cached entry; nothing is counted")
    func aRelaunchedClientReplaysTheCachedEntry() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        _ = try await device.launch(appUserId: "alice").checkEntitlements()
        var client: EntitlementClient? = try await device.relaunch()
        let stream = client?.updates()
        #expect(await client?.updateCount == 0, "configuring yields no update (scenarios.md)")
        #expect(device.backend.totalCalls == 1, "the replay calls no backend")
        client = nil  // ends the stream before any check
        let yielded = await Self.activeIds(yieldedBy: stream)
        #expect(yielded == [["premium"]], "RevenueCat's customerInfoStream yields the cached customer info at once")
    }

    @Test("logIn, purchases, restores and syncs are answers; logOut and a failed operation are not")
    func operationsPublish() async throws {
        let device = TestDevice()
        let client = try await device.launch()
        _ = await client.checkEntitlements()  // 1: the anonymous customer, empty
        let receipt = StoreReceipt(store: .appStore, token: "apple-1")
        _ = try await client.recordPurchase(StorePurchase(receipt: receipt, productId: "lifetime"))  // 2
        _ = try await client.logIn("alice")  // 3: alice (the purchase followed, another appUserId)
        _ = try await client.restorePurchases(receipt)  // unchanged
        #expect(await client.updateCount == 3)
        try await client.logOut()
        #expect(await client.updateCount == 3)
        device.backend.goOffline()
        _ = try? await client.syncPurchases(receipt)
        #expect(await client.updateCount == 3)
        device.backend.succeed()
        _ = try await client.syncPurchases(receipt)  // 4: the new anonymous customer
        #expect(await client.updateCount == 4)
    }

    @Test("updateCount counts from the client's creation: a relaunch starts again at zero")
    func countPerClient() async throws {
        let device = TestDevice()
        let first = try await device.launch(appUserId: "alice")
        _ = await first.checkEntitlements()
        #expect(await first.updateCount == 1)
        let second = try await device.relaunch()
        #expect(await second.updateCount == 0)
        _ = await second.checkEntitlements()
        #expect(await second.updateCount == 1)
    }
}
