import EntitlementKit
import Foundation
import Testing

/// The client keeps the current customer's fresh entry in memory and only moves the last answer to the
/// new trusted instant: these are the rules that keeps honest.
@Suite("Client warm checks from memory", .timeLimit(.minutes(5)))
struct WarmCheckTests {
    @Test("an expiry crossed between two checks from memory lapses, offline, and the streams are offered it")
    func expiryBetweenWarmChecksLapses() async throws {
        let device = TestDevice()
        let start = device.time.now
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(2 * minute))
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        let stream = client?.updates()
        #expect(await client?.checkEntitlements().source == .network)
        device.backend.goOffline()

        device.time.advance(minute)
        let before = await client?.checkEntitlements()
        #expect(before?.source == .cache)
        #expect(before?.error == nil)
        #expect(before?.isActive("premium") == true)
        #expect(before?.snapshot?.evaluatedAt == start.addingTimeInterval(minute))

        device.time.advance(2 * minute)  // still fresh (3 of 5 minutes), premium ended a minute ago
        let after = await client?.checkEntitlements()
        #expect(after?.source == .cache)
        #expect(after?.error == nil)
        #expect(after?.isActive("premium") == false)
        #expect(after?.snapshot?.evaluatedAt == start.addingTimeInterval(3 * minute))
        #expect(after?.snapshot?["premium"]?.evaluatedAt == start.addingTimeInterval(3 * minute))
        #expect(device.backend.calls(.snapshot) == 1)
        #expect(await client?.updateCount == 2)

        client = nil
        var yielded: [[String]] = []
        if let stream {
            for await snapshot in stream { yielded.append(snapshot.activeEntitlementIds) }
        }
        #expect(yielded == [["premium"], []])
    }

    @Test("with no server time at all, an earlier device instant that restores access is offered to the streams")
    func earlierInstantWithoutServerTime() async throws {
        // An entry from an earlier run whose snapshot has no requestDate: nothing but the device clock
        // tells the time, so the answer follows it both ways (the documented limit).
        let device = TestDevice()
        let start = device.time.now
        let snapshot = EntitlementSnapshot(
            provider: .revenueCat, appUserId: "alice", evaluatedAt: start,
            entitlements: [Entitlement(id: "premium", expirationDate: start.addingTimeInterval(2 * minute), at: start)])
        try await device.cache.store(
            EntitlementCacheEntry(snapshot: snapshot, writtenAt: start, newestRequestDate: nil), for: "alice")
        device.backend.goOffline()
        let client = try await device.launch(appUserId: "alice")

        device.time.setDeviceOffset(3 * minute)
        #expect(await client.checkEntitlements().isActive("premium") == false)  // read from the cache
        #expect(await client.checkEntitlements().isActive("premium") == false)  // from memory
        device.time.setDeviceOffset(minute)  // back, still inside the fresh window
        let check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.isActive("premium"))
        #expect(await client.updateCount == 2)
        #expect(device.backend.calls(.snapshot) == 0)
    }

    @Test("a stream made between two checks from memory yields the next answer, though it did not change")
    func streamMadeBetweenWarmChecks() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        var client: EntitlementClient? = try await device.launch(appUserId: "alice")
        _ = await client?.checkEntitlements()
        _ = await client?.checkEntitlements()
        #expect(await client?.checkEntitlements().source == .cache)
        let late = client?.updates()
        _ = await client?.checkEntitlements()
        #expect(await client?.updateCount == 1)
        client = nil
        var yielded: [[String]] = []
        if let late {
            for await snapshot in late { yielded.append(snapshot.activeEntitlementIds) }
        }
        #expect(yielded == [["premium"]])
    }

    @Test("a check the caller keeps is not changed by later checks")
    func keptAnswerStaysAsItWas() async throws {
        let device = TestDevice()
        let start = device.time.now
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(2 * minute))
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()
        device.time.advance(minute)
        let kept = await client.checkEntitlements()
        device.time.advance(2 * minute)
        let later = await client.checkEntitlements()
        #expect(later.isActive("premium") == false)
        #expect(kept.isActive("premium"))
        #expect(kept.snapshot?.evaluatedAt == start.addingTimeInterval(minute))
        #expect(kept.snapshot?["premium"]?.evaluatedAt == start.addingTimeInterval(minute))
    }

    @Test("after logOut the previous customer's entry in memory never answers, even offline")
    func logOutDropsMemory() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()
        #expect(await client.checkEntitlements().source == .cache)
        try await client.logOut()
        device.backend.goOffline()
        for policy in FetchPolicy.allCases {
            let check = await client.checkEntitlements(policy)
            #expect(check.snapshot == nil)
            #expect(check.isActive("premium") == false)
        }
    }

    @Test("after logIn the new customer's stored answer is what memory holds")
    func logInReplacesMemory() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        device.backend.revokeAll(from: "bob")
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()
        #expect(await client.checkEntitlements().isActive("premium"))
        _ = try await client.logIn("bob")
        let check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.snapshot?.appUserId == "bob")
        #expect(check.isActive("premium") == false)
        #expect(device.backend.calls(.snapshot) == 1)
    }

    @Test("a check from memory waiting for the floor to be written when logIn switched is not shown")
    func switchWhileWarmCheckWritesFloor() async throws {
        let cache = GatedCache()
        let device = TestDevice(cache: cache)
        let client = try await device.launch()
        let anonymous = await client.appUserId
        device.backend.grant("premium", to: anonymous, until: nil)
        device.backend.revokeAll(from: "alice")
        _ = await client.checkEntitlements()  // fetched, stored, the floor written
        device.time.advance(minute)  // the floor has moved on far enough to be written again

        await cache.arm(.floor)
        async let pending = client.checkEntitlements()
        var arrivals = cache.heldArrivals.makeAsyncIterator()
        _ = await arrivals.next()
        _ = try await client.logIn("alice")
        await cache.release()
        let answer = await pending

        #expect(answer.snapshot?.appUserId == "alice")
        #expect(answer.isActive("premium") == false)
    }

    @Test("another client's write to the same cache is read once this client's entry is no longer fresh")
    func otherWriterSeenWhenStale() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let app = try await device.launch(appUserId: "alice")
        #expect(await app.checkEntitlements().activeEntitlementIds == ["premium"])

        device.time.advance(minute)
        device.backend.grant("gold", to: "alice", until: nil)
        let fromExtension = try await device.launch(appUserId: "alice")  // e.g. an app extension
        #expect(await fromExtension.checkEntitlements(.fetchCurrent).activeEntitlementIds == ["gold", "premium"])
        #expect(await app.checkEntitlements().activeEntitlementIds == ["premium"])  // its own fresh entry

        device.time.advance(4 * minute)  // the app's entry is stale; the extension's is a minute younger
        device.backend.goOffline()
        let check = await app.checkEntitlements()
        #expect(check.activeEntitlementIds == ["gold", "premium"])
        #expect(check.source == .cache)
    }
}
