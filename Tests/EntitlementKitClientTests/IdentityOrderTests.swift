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
}
