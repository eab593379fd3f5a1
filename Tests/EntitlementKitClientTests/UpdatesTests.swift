import EntitlementKit
import Foundation
import Testing

@Suite("Client updates stream")
struct UpdatesTests {
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
        var yielded: [[String]] = []
        if let stream {
            for await snapshot in stream { yielded.append(snapshot.activeEntitlementIds) }
        }
        #expect(yielded == [["premium"], [], ["gold"]])
    }

    @Test("each stream starts with the first answer after it was made, even when that answer did not change")
    func eachStreamStartsFresh() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        _ = await client?.checkEntitlements()
        let late = client?.updates()
        _ = await client?.checkEntitlements()
        _ = await client?.checkEntitlements()
        #expect(await client?.updateCount == 1)
        client = nil
        var count = 0
        if let late {
            for await _ in late { count += 1 }
        }
        #expect(count == 1)
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
