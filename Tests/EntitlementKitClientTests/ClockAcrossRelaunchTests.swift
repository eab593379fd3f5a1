import EntitlementKit
import Foundation
import Testing

/// The floor across relaunches: raised only by server time, persisted the moment access changes; and
/// the update streams at an expiry instant.
@Suite("Trusted instant across relaunches, and at an expiry instant", .timeLimit(.minutes(5)))
struct ClockAcrossRelaunchTests {
    @Test("a device clock set forward while fetching does not stick after a relaunch")
    func clockSetForwardDoesNotStick() async throws {
        let device = TestDevice()
        let start = device.time.now
        device.backend.grant("premium", to: "alice", until: start.addingTimeInterval(10 * day))
        device.time.setDeviceOffset(30 * day)
        let first = try await device.launch(appUserId: "alice")
        #expect(await first.checkEntitlements().isActive("premium") == false)  // the device's word, this run

        device.time.setDeviceOffset(0)
        device.backend.goOffline()
        let second = try await device.relaunch(appUserId: "alice")
        let check = await second.checkEntitlements(.fromCacheOnly)
        #expect(check.isActive("premium"))
        #expect(try #require(check.snapshot).evaluatedAt < start.addingTimeInterval(10 * day))
    }

    @Test("the floor is persisted when access changes, even within a second of the last persist")
    func floorPersistedWhenAccessChanges() async throws {
        let device = TestDevice()
        let expiry = device.time.now.addingTimeInterval(10 * minute)
        device.backend.grant("premium", to: "alice", until: expiry)
        device.time.advance(10 * minute - 0.5)
        device.time.setDeviceOffset(-day)  // the device clock is behind: server time decides
        let client = try await device.launch(appUserId: "alice")
        #expect(await client.checkEntitlements().isActive("premium"))  // server time: expiry - 0.5 s
        device.time.advance(0.8)
        #expect(await client.checkEntitlements().isActive("premium") == false)  // server now: expiry + 0.3 s

        device.backend.goOffline()
        let relaunched = try await device.relaunch(appUserId: "alice")
        let check = await relaunched.checkEntitlements()
        #expect(check.source == .cache)
        #expect(check.isActive("premium") == false)
        #expect(await device.cache.trustedFloor().map { $0 > expiry } == true)
    }

    @Test("a check exactly at the expiry instant, then a moment later: the lapse reaches the update streams")
    func lapseAfterTheExpiryInstantIsPublished() async throws {
        let device = TestDevice()
        let expiry = device.time.now.addingTimeInterval(minute)
        device.backend.grant("premium", to: "alice", until: expiry)
        let client = try await device.launch(appUserId: "alice")
        let stream = client.updates()
        #expect(await client.checkEntitlements().isActive("premium"))
        device.time.advance(minute)
        #expect(await client.checkEntitlements().isActive("premium"))  // at the expiry instant: still active
        #expect(await client.updateCount == 1)
        device.time.advance(0.001)
        #expect(await client.checkEntitlements().isActive("premium") == false)
        #expect(await client.updateCount == 2)
        var updates = stream.makeAsyncIterator()
        #expect(await updates.next()?.isActive("premium") == true)
        #expect(await updates.next()?.isActive("premium") == false)
    }
}
