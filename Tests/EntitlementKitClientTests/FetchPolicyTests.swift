import EntitlementKit
import Foundation
import Testing

@Suite("Client fetch policies and the fresh window", .timeLimit(.minutes(5)))
struct FetchPolicyTests {
    private func customerWithPremium() async throws -> (TestDevice, EntitlementClient) {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        return (device, try await device.launch(appUserId: "alice"))
    }

    @Test("cachedOrFetched: fetch and store, then the fresh entry answers until freshFor has passed")
    func cachedOrFetchedFreshWindow() async throws {
        let (device, client) = try await customerWithPremium()
        let first = await client.checkEntitlements()
        #expect(first.source == .network)
        #expect(first.error == nil)
        #expect(first.isActive("premium"))

        device.time.advance(5 * minute - 1)
        let cached = await client.checkEntitlements(.cachedOrFetched)
        #expect(cached.source == .cache)
        #expect(cached.isActive("premium"))
        #expect(device.backend.calls(.snapshot) == 1)

        device.time.advance(1)
        #expect(await client.checkEntitlements().source == .network)
        #expect(device.backend.calls(.snapshot) == 2)
    }

    @Test("freshFor is the client's setting")
    func customFreshFor() async throws {
        let device = TestDevice()
        let client = try await device.launch(appUserId: "alice", freshFor: .seconds(10))
        _ = await client.checkEntitlements()
        device.time.advance(9)
        #expect(await client.checkEntitlements().source == .cache)
        device.time.advance(1)
        #expect(await client.checkEntitlements().source == .network)
    }

    @Test("within a run the fresh window is measured on the monotonic clock, whatever the device clock does")
    func freshWindowIgnoresDeviceClockWithinRun() async throws {
        let (device, client) = try await customerWithPremium()
        _ = await client.checkEntitlements()
        device.time.setDeviceOffset(-3 * day)
        #expect(await client.checkEntitlements().source == .cache)
        device.time.setDeviceOffset(+3 * day)
        #expect(await client.checkEntitlements().source == .cache)
        device.time.setDeviceOffset(0)
        device.time.advance(5 * minute)
        device.time.setDeviceOffset(-2 * minute)  // by the device clock only 3 minutes have passed
        #expect(await client.checkEntitlements().source == .network)
    }

    @Test("after a relaunch an entry is fresh only while writtenAt <= device now < writtenAt + freshFor")
    func freshWindowAcrossRelaunch() async throws {
        let (device, client) = try await customerWithPremium()
        _ = await client.checkEntitlements()

        device.time.advance(4 * minute)
        var relaunched = try await device.relaunch()
        #expect(await relaunched.checkEntitlements().source == .cache)

        device.time.setDeviceOffset(-4 * minute - 0.001)  // one millisecond before writtenAt
        relaunched = try await device.relaunch()
        #expect(await relaunched.checkEntitlements().source == .network)
        #expect(device.backend.calls(.snapshot) == 2)
    }

    @Test("after a relaunch the window ends exactly at writtenAt + freshFor on the device clock")
    func freshWindowEndAcrossRelaunch() async throws {
        let (device, client) = try await customerWithPremium()
        _ = await client.checkEntitlements()
        device.time.advance(5 * minute - 0.001)
        #expect(try await device.relaunch().checkEntitlements().source == .cache)
        device.time.advance(0.001)
        #expect(try await device.relaunch().checkEntitlements().source == .network)
    }

    @Test("cachedOrFetched: a failed fetch falls back to the entry of any age, with the error alongside")
    func cachedOrFetchedFallback() async throws {
        let (device, client) = try await customerWithPremium()
        _ = await client.checkEntitlements()
        device.time.advance(2 * hour)
        device.backend.goOffline()
        let check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.error?.code == .offline)
        #expect(check.isActive("premium"))
        #expect(device.backend.calls(.snapshot) == 2)
    }

    @Test("cachedOrFetched and fetchCurrent with nothing cached: a failed fetch is a failure from the network")
    func failureWithoutEntry() async throws {
        for policy in [FetchPolicy.cachedOrFetched, .fetchCurrent, .notStaleCachedOrFetched] {
            let (device, client) = try await customerWithPremium()
            device.backend.fail(with: EntitlementClientError(.backendUnavailable, "503 after retries", httpStatus: 503))
            let check = await client.checkEntitlements(policy)
            #expect(check.snapshot == nil)
            #expect(check.source == .network)
            #expect(check.error?.code == .backendUnavailable)
            #expect(check.activeEntitlementIds == [])
            #expect(check.isActive("premium") == false)
        }
    }

    @Test("fetchCurrent always fetches, and falls back to the entry when the fetch fails")
    func fetchCurrent() async throws {
        let (device, client) = try await customerWithPremium()
        _ = await client.checkEntitlements()
        let fetched = await client.checkEntitlements(.fetchCurrent)
        #expect(fetched.source == .network)
        #expect(device.backend.calls(.snapshot) == 2)
        device.backend.fail(with: EntitlementClientError(.credentialsRefused, "401", httpStatus: 401))
        let fallback = await client.checkEntitlements(.fetchCurrent)
        #expect(fallback.source == .cache)
        #expect(fallback.error?.code == .credentialsRefused)
        #expect(fallback.isActive("premium"))
    }

    @Test("notStaleCachedOrFetched: fresh entry answers; a failed fetch fails even with a stale entry")
    func notStale() async throws {
        let (device, client) = try await customerWithPremium()
        _ = await client.checkEntitlements()
        #expect(await client.checkEntitlements(.notStaleCachedOrFetched).source == .cache)
        device.time.advance(5 * minute)
        device.backend.goOffline()
        let check = await client.checkEntitlements(.notStaleCachedOrFetched)
        #expect(check.snapshot == nil)
        #expect(check.error?.code == .offline)
        #expect(check.source == .network)
        device.backend.succeed()
        let refetched = await client.checkEntitlements(.notStaleCachedOrFetched)
        #expect(refetched.source == .network)
        #expect(refetched.isActive("premium"))
    }

    @Test("fromCacheOnly: the entry of any age without a backend call, or noCachedSnapshot")
    func fromCacheOnly() async throws {
        let (device, client) = try await customerWithPremium()
        let empty = await client.checkEntitlements(.fromCacheOnly)
        #expect(empty.snapshot == nil)
        #expect(empty.source == .cache)
        #expect(empty.error?.code == .noCachedSnapshot)
        #expect(device.backend.totalCalls == 0)

        _ = await client.checkEntitlements()
        device.time.advance(30 * day)
        let old = await client.checkEntitlements(.fromCacheOnly)
        #expect(old.source == .cache)
        #expect(old.error == nil)
        #expect(old.isActive("premium"))
        #expect(device.backend.calls(.snapshot) == 1)
    }

    @Test("invalidateCache: the next check fetches; the entry still answers fromCacheOnly, across a relaunch too")
    func invalidateCache() async throws {
        let (device, client) = try await customerWithPremium()
        _ = await client.checkEntitlements()
        await client.invalidateCache()
        #expect(await client.checkEntitlements(.fromCacheOnly).isActive("premium"))
        #expect(await client.checkEntitlements().source == .network)
        #expect(await client.checkEntitlements().source == .cache)

        await client.invalidateCache()
        let relaunched = try await device.relaunch()
        #expect(await relaunched.checkEntitlements(.notStaleCachedOrFetched).source == .network)
        #expect(device.backend.calls(.snapshot) == 3)
    }

    @Test("a purchase, a restore and a sync store the provider's snapshot: the next check is fresh and shows it")
    func operationsStoreTheirSnapshot() async throws {
        let device = TestDevice()
        let client = try await device.launch(appUserId: "alice")
        #expect(await client.checkEntitlements().activeEntitlementIds == [])

        let receipt = StoreReceipt(store: .appStore, token: "apple-1")
        let bought = try await client.recordPurchase(StorePurchase(receipt: receipt, productId: "monthly"))
        #expect(bought.activeEntitlementIds == ["premium"])
        var check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.activeEntitlementIds == ["premium"])

        device.backend.setReceipt("apple-2", grants: ["gold": nil])
        let restored = try await client.restorePurchases(StoreReceipt(store: .appStore, token: "apple-2"))
        #expect(restored.activeEntitlementIds == ["gold", "premium"])
        check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.activeEntitlementIds == ["gold", "premium"])

        device.backend.setReceipt("play-1", grants: ["silver": nil])
        let synced = try await client.syncPurchases(StoreReceipt(store: .playStore, token: "play-1"))
        #expect(synced.activeEntitlementIds == ["gold", "premium", "silver"])
        check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.activeEntitlementIds == ["gold", "premium", "silver"])
        #expect(device.backend.calls(.snapshot) == 1)
    }

    @Test("a failed purchase throws and stores nothing")
    func failedPurchase() async throws {
        let device = TestDevice()
        let client = try await device.launch(appUserId: "alice")
        device.backend.fail(with: EntitlementClientError(.receiptInUseByOtherUser, "the receipt belongs to bob"))
        let receipt = StoreReceipt(store: .appStore, token: "apple-1")
        let error = await #expect(throws: EntitlementClientError.self) {
            try await client.recordPurchase(StorePurchase(receipt: receipt, productId: "monthly"))
        }
        #expect(error?.code == .receiptInUseByOtherUser)
        #expect(await device.cache.entry(for: "alice") == nil)
        #expect(await client.updateCount == 0)
    }
}
