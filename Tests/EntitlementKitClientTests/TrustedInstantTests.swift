import EntitlementKit
import Foundation
import TestSupport
import Testing

@Suite("Client trusted instant: max(device now, server now, floor)", .timeLimit(.minutes(5)))
struct TrustedInstantTests {
    private let start = instant("2025-01-01T00:00:00Z")

    /// A device whose customer `alice` holds `premium` until one day after the start, checked once online.
    private func checkedOnce() async throws -> (TestDevice, EntitlementClient) {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(day))
        let client = try await device.launch(appUserId: "alice")
        let first = await client.checkEntitlements()
        #expect(first.isActive("premium"))
        return (device, client)
    }

    @Test("server now = the newest requestDate + monotonic time since it arrived, even with the clock turned back")
    func serverNowAdvancesMonotonically() async throws {
        let (device, client) = try await checkedOnce()
        device.time.advance(hour)
        device.time.setDeviceOffset(-10 * day)
        let check = await client.checkEntitlements(.fromCacheOnly)
        #expect(check.snapshot?.evaluatedAt == start.addingTimeInterval(hour))
    }

    @Test("a cached entitlement whose expiry passes offline lapses within the run, even with the clock turned back")
    func lapsesOfflineWithinRun() async throws {
        let (device, client) = try await checkedOnce()
        device.backend.goOffline()
        device.time.advance(2 * day)
        device.time.setDeviceOffset(-5 * day)
        let check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.error?.code == .offline)
        #expect(check.snapshot != nil)
        #expect(check.isActive("premium") == false)
        #expect(check.snapshot?.evaluatedAt == start.addingTimeInterval(2 * day))
    }

    @Test("an answer from the network is evaluated at the trusted instant too (the clock turned back revives nothing)")
    func networkAnswersAtTrustedInstant() async throws {
        let (device, client) = try await checkedOnce()
        device.time.setDeviceOffset(-5 * day)
        device.time.advance(2 * day)
        let check = await client.checkEntitlements(.fetchCurrent)
        #expect(check.source == .network)
        #expect(check.snapshot?.evaluatedAt == start.addingTimeInterval(2 * day))
        #expect(check.isActive("premium") == false)
    }

    @Test("the floor is persisted: across a relaunch, offline, with the clock turned back, nothing before it revives")
    func floorSurvivesRelaunch() async throws {
        let (device, client) = try await checkedOnce()
        device.backend.goOffline()
        device.time.advance(2 * day)
        #expect(await client.checkEntitlements().isActive("premium") == false)  // the floor rises to start + 2 days
        #expect(await device.cache.trustedFloor() == start.addingTimeInterval(2 * day))

        device.time.setDeviceOffset(-5 * day)
        let relaunched = try await device.relaunch()
        let check = await relaunched.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.isActive("premium") == false)
        #expect(check.snapshot?.evaluatedAt == start.addingTimeInterval(2 * day))
    }

    @Test("after a relaunch with no server answer, the floor advances with the monotonic clock of the new run")
    func floorAdvancesWithinOfflineRun() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(30 * hour))
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()  // the entry's newest server time: the start
        device.backend.goOffline()
        device.time.advance(day)
        _ = await client.checkEntitlements()  // the floor: start + 1 day, later than the entry's server time

        device.time.setDeviceOffset(-10 * day)
        let relaunched = try await device.relaunch()
        #expect(await relaunched.checkEntitlements().isActive("premium"))
        device.time.advance(12 * hour)
        let check = await relaunched.checkEntitlements()
        #expect(check.isActive("premium") == false)
        #expect(check.snapshot?.evaluatedAt == start.addingTimeInterval(36 * hour))
    }

    @Test("a cached entry's newest requestDate raises the floor when it is read")
    func cachedRequestDateRaisesFloor() async throws {
        let device = TestDevice()
        let requestDate = start
        let snapshot = EntitlementSnapshot(
            provider: .revenueCat, appUserId: "alice", requestDate: requestDate, evaluatedAt: requestDate,
            entitlements: [Entitlement(id: "premium", expirationDate: start.addingTimeInterval(hour), at: requestDate)])
        try await device.cache.store(
            EntitlementCacheEntry(
                snapshot: snapshot, writtenAt: start, newestRequestDate: start.addingTimeInterval(2 * hour)),
            for: "alice")
        device.time.setDeviceOffset(-day)
        let client = try await device.launch(appUserId: "alice")
        let check = await client.checkEntitlements(.fromCacheOnly)
        #expect(check.isActive("premium") == false)
        #expect(check.snapshot?.evaluatedAt == start.addingTimeInterval(2 * hour))
        #expect(await device.cache.trustedFloor() == start.addingTimeInterval(2 * hour))
    }

    @Test("a device clock ahead decides the answer while it is ahead, but never raises the floor")
    func clockForwardDoesNotStick() async throws {
        let (device, client) = try await checkedOnce()
        device.time.setDeviceOffset(3 * day)
        let ahead = await client.checkEntitlements()
        #expect(ahead.source == .cache)
        #expect(ahead.isActive("premium") == false)
        #expect(ahead.snapshot?.evaluatedAt == start.addingTimeInterval(3 * day))

        device.time.setDeviceOffset(0)
        #expect(await client.checkEntitlements().isActive("premium"))
        #expect(await device.cache.trustedFloor() == start)

        device.time.setDeviceOffset(3 * day)
        _ = await client.checkEntitlements()
        device.time.setDeviceOffset(0)
        device.backend.goOffline()
        #expect(try await device.relaunch().checkEntitlements().isActive("premium"))
    }

    @Test("cachedSnapshot is evaluated at the trusted instant and makes no backend call")
    func cachedSnapshotTrusted() async throws {
        let (device, client) = try await checkedOnce()
        device.time.advance(2 * day)
        device.time.setDeviceOffset(-5 * day)
        let snapshot = await client.cachedSnapshot()
        #expect(snapshot?.isActive("premium") == false)
        #expect(snapshot?.evaluatedAt == start.addingTimeInterval(2 * day))
        #expect(device.backend.calls(.snapshot) == 1)
    }
}
