import EntitlementKit
import Foundation
import Testing

/// Identity changes run one at a time, so the stored id is the current one whatever order they are
/// called in; the ids a launch and a logIn use are the ones checked.
@Suite("Identity: order of changes, and the ids checked", .timeLimit(.minutes(5)))
struct IdentityOrderTests {
    /// Lets other tasks run until `condition` holds or a bounded number of turns has passed.
    private func yield(until condition: () async -> Bool) async {
        for _ in 0..<1_000 where await !condition() { await Task.yield() }
    }

    @Test("a logOut called while a logIn waits on the cache leaves the stored id equal to the current one")
    func logOutDuringLogIn() async throws {
        let cache = GatedCache()
        let device = TestDevice(cache: cache)
        let client = try await device.launch(appUserId: "alice")
        await cache.arm(.remove)
        let logIn = Task { try await client.logIn("bob") }
        var arrivals = cache.heldArrivals.makeAsyncIterator()
        _ = await arrivals.next()  // the logIn is dropping alice's entry
        let logOut = Task { try await client.logOut() }
        // Without serialised identity changes the logOut completes here (the stored id moves to a new
        // anonymous one); with them it waits for the logIn.
        await yield(until: { await cache.storedAppUserId() != "alice" })
        await cache.release()
        _ = try await logIn.value
        try await logOut.value
        let current = await client.appUserId
        #expect(await client.isAnonymous)
        #expect(await cache.storedAppUserId() == current)
        let relaunched = try await device.relaunch()
        #expect(await relaunched.appUserId == current)
        #expect(await relaunched.checkEntitlements(.fromCacheOnly).isActive("premium") == false)
    }

    @Test("two logIns called together: the later one wins, is told the earlier's id, and is the stored one")
    func concurrentLogIns() async throws {
        let cache = GatedCache()
        let device = TestDevice(cache: cache)
        device.backend.grant("premium", to: "bob", until: nil)
        let client = try await device.launch(appUserId: "alice")
        await cache.arm(.remove)
        let first = Task { try await client.logIn("bob") }
        var arrivals = cache.heldArrivals.makeAsyncIterator()
        _ = await arrivals.next()
        let second = Task { try await client.logIn("carol") }
        await yield(until: { await cache.storedAppUserId() != "alice" })
        await cache.release()
        _ = try await first.value
        _ = try await second.value
        #expect(await client.appUserId == "carol")
        #expect(await cache.storedAppUserId() == "carol")
        #expect(device.backend.logInOrigins == ["alice", "bob"])
        #expect(await client.checkEntitlements(.fromCacheOnly).isActive("premium") == false)
    }

    @Test("logIn checks the id it sends: the trimmed one")
    func logInValidatesTheTrimmedId() async throws {
        let device = TestDevice()
        let client = try await device.launch(appUserId: "alice")
        for padded in ["  null ", "\tundefined\n", " 0 ", " a/b "] {
            let error = await #expect(throws: EntitlementClientError.self) { try await client.logIn(padded) }
            #expect(error?.code == .invalidAppUserId, "\(padded)")
        }
        #expect(device.backend.totalCalls == 0)
        #expect(await client.appUserId == "alice")
    }

    @Test("a stored id the backends refuse is not used at launch: a new anonymous id is")
    func refusedStoredIdIsNotReused() async throws {
        for refused in ["null", "a/b", "", "(null)", String(repeating: "x", count: 101)] {
            let cache = InMemoryEntitlementCache()
            await cache.storeAppUserId(refused)
            let device = TestDevice(cache: cache)
            let client = try await device.launch()
            #expect(await client.isAnonymous, "\(refused)")
            #expect(await cache.storedAppUserId() == client.appUserId)
        }
    }

    @Test("a stored-id write this client failed is not taken for another process's change: the logIn stands")
    func aFailedIdWriteIsNotFollowed() async throws {
        let cache = IdRefusingCache()
        let device = TestDevice(cache: cache)
        device.backend.grant("premium", to: "bob", until: nil)
        let client = try await device.launch(appUserId: "alice")
        await cache.refuseIdWrites()
        _ = try await client.logIn("bob")
        // The disk still says alice (the write failed); no other process changed it, so a check that
        // reads the stored id must not switch back to alice.
        #expect(await cache.storedAppUserId() == "alice")
        let check = await client.checkEntitlements(.fetchCurrent)
        #expect(await client.appUserId == "bob")
        #expect(check.isActive("premium"))
        #expect(check.snapshot?.appUserId == "bob")
    }
}

/// An in-memory cache whose app-user-id writes fail once `refuseIdWrites()` is called (a full disk).
private actor IdRefusingCache: EntitlementCache {
    private let base = InMemoryEntitlementCache()
    private var refusesIdWrites = false

    func refuseIdWrites() {
        refusesIdWrites = true
    }

    func entry(for appUserId: String) async -> EntitlementCacheEntry? {
        await base.entry(for: appUserId)
    }

    func store(_ entry: EntitlementCacheEntry, for appUserId: String) async {
        await base.store(entry, for: appUserId)
    }

    func removeEntry(for appUserId: String) async {
        await base.removeEntry(for: appUserId)
    }

    func storedAppUserId() async -> String? {
        await base.storedAppUserId()
    }

    func storeAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        guard !refusesIdWrites else { throw EntitlementCacheError(.fileSystem, "no space left on device") }
        await base.storeAppUserId(appUserId)
    }

    func trustedFloor() async -> Date? {
        await base.trustedFloor()
    }

    func storeTrustedFloor(_ floor: Date) async {
        await base.storeTrustedFloor(floor)
    }
}
