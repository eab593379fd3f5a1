import EntitlementKit
import Foundation
import Testing

@Suite("Client identity", .timeLimit(.minutes(5)))
struct IdentityTests {
    @Test("configured without an id: a new anonymous id in the provider's form, stored, no backend call")
    func newAnonymousId() async throws {
        let device = TestDevice()
        let client = try await device.launch()
        let id = await client.appUserId
        #expect(id == "$RCAnonymousID:00000000000000000000000000000001")
        #expect(await client.isAnonymous)
        #expect(await device.cache.storedAppUserId() == id)
        #expect(device.backend.totalCalls == 0)
    }

    @Test("configured without an id after an earlier launch: the stored id")
    func storedIdOnRelaunch() async throws {
        let device = TestDevice()
        let first = try await device.launch()
        let id = await first.appUserId
        let second = try await device.relaunch()
        #expect(await second.appUserId == id)
        let identified = try await device.relaunch(appUserId: "alice")
        #expect(await identified.appUserId == "alice")
        #expect(await identified.isAnonymous == false)
        #expect(try await device.relaunch().appUserId == "alice")
        #expect(device.backend.totalCalls == 0)
    }

    @Test(
        "an id the backends refuse is refused at configuration, naming the rule, before anything else",
        arguments: [
            ("", "is empty"), ("   ", "is only whitespace"), ("null", "block-list"), ("[object Object]", "block-list"),
            ("a/b", "contains \"/\""), (String(repeating: "x", count: 101), "101 characters"),
            ("a\u{0}b", "NUL"),
        ])
    func refusedAtConfiguration(id: String, rule: String) async throws {
        let device = TestDevice()
        let error = await #expect(throws: EntitlementClientError.self) { try await device.launch(appUserId: id) }
        #expect(error?.code == .invalidAppUserId)
        #expect(error?.message.contains(rule) == true)
        #expect(device.backend.totalCalls == 0)
        #expect(await device.cache.storedAppUserId() == nil)
    }

    @Test("an id of exactly 100 characters and one with surrounding spaces are accepted as given")
    func acceptedAsGiven() async throws {
        let device = TestDevice()
        let long = String(repeating: "y", count: 100)
        #expect(try await device.launch(appUserId: long).appUserId == long)
        #expect(try await device.launch(appUserId: " alice ").appUserId == " alice ")
    }

    @Test("ids are case-sensitive: Alice's entry never answers for alice")
    func caseSensitive() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "Alice", until: nil)
        let upper = try await device.launch(appUserId: "Alice")
        #expect(await upper.checkEntitlements().isActive("premium"))
        let lower = try await device.launch(appUserId: "alice")
        let check = await lower.checkEntitlements()
        #expect(check.source == .network)
        #expect(check.activeEntitlementIds == [])
        #expect(device.backend.asked == ["Alice", "alice"])
    }

    @Test("logIn trims whitespace, and refuses a bad id before any backend call")
    func logInTrimsAndValidates() async throws {
        let device = TestDevice()
        let client = try await device.launch()
        _ = try await client.logIn("  alice\n")
        #expect(await client.appUserId == "alice")
        #expect(device.backend.asked == ["alice"])
        for bad in ["", " \t", "guest", "x/y", String(repeating: "z", count: 101)] {
            let error = await #expect(throws: EntitlementClientError.self) { try await client.logIn(bad) }
            #expect(error?.code == .invalidAppUserId)
        }
        #expect(device.backend.totalCalls == 1)
        #expect(await client.appUserId == "alice")
    }

    @Test("logIn with the current id: no backend call, created false, the cached answer")
    func logInSameId() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()
        let calls = device.backend.totalCalls
        let result = try await client.logIn("alice")
        #expect(result.created == false)
        #expect(result.snapshot.activeEntitlementIds == ["premium"])
        let untrimmed = try await client.logIn(" alice ")
        #expect(untrimmed.created == false)
        #expect(device.backend.totalCalls == calls)
    }

    @Test("logIn with the current id and nothing cached: an empty answer that grants nothing, no backend call")
    func logInSameIdNothingCached() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let client = try await device.launch(appUserId: "alice")
        let result = try await client.logIn("alice")
        #expect(result.created == false)
        #expect(result.snapshot.activeEntitlementIds == [])
        #expect(device.backend.totalCalls == 0)
    }

    @Test("logIn to another id: the provider decides, the old entry is dropped, the new answer is stored fresh")
    func logInOtherId() async throws {
        let device = TestDevice()
        let client = try await device.launch()
        let anonymous = await client.appUserId
        device.backend.grant("premium", to: anonymous, until: nil)
        _ = await client.checkEntitlements()
        #expect(await device.cache.entry(for: anonymous) != nil)

        let result = try await client.logIn("alice")
        #expect(result.created)
        #expect(result.snapshot.appUserId == "alice")
        #expect(result.snapshot.activeEntitlementIds == ["premium"])
        #expect(await client.appUserId == "alice")
        #expect(await client.isAnonymous == false)
        #expect(await device.cache.entry(for: anonymous) == nil)
        #expect(await device.cache.entry(for: "alice") != nil)
        #expect(await device.cache.storedAppUserId() == "alice")

        let check = await client.checkEntitlements()
        #expect(check.source == .cache)
        #expect(device.backend.calls(.snapshot) == 1)

        let again = try await client.logIn("bob")
        #expect(again.created)
        #expect(again.snapshot.activeEntitlementIds == [])
        #expect(await device.cache.entry(for: "alice") == nil)
        _ = try await client.logIn("alice")
        #expect(try await client.logIn("bob").created == false)
    }

    @Test("a failed logIn leaves the customer and the cache as they were")
    func failedLogIn() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()
        device.backend.goOffline()
        let error = await #expect(throws: EntitlementClientError.self) { try await client.logIn("bob") }
        #expect(error?.code == .offline)
        #expect(await client.appUserId == "alice")
        #expect(await device.cache.entry(for: "alice") != nil)
        #expect(await device.cache.storedAppUserId() == "alice")
    }

    @Test("logOut when anonymous fails with alreadyAnonymous")
    func logOutAnonymous() async throws {
        let device = TestDevice()
        let client = try await device.launch()
        let id = await client.appUserId
        let error = await #expect(throws: EntitlementClientError.self) { try await client.logOut() }
        #expect(error?.code == .alreadyAnonymous)
        #expect(await client.appUserId == id)
    }

    @Test("logOut: a new anonymous id, stored, the old customer's entry dropped, no backend call")
    func logOut() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()
        let calls = device.backend.totalCalls
        try await client.logOut()
        let id = await client.appUserId
        #expect(id.hasPrefix("$RCAnonymousID:"))
        #expect(await client.isAnonymous)
        #expect(await device.cache.storedAppUserId() == id)
        #expect(await device.cache.entry(for: "alice") == nil)
        #expect(device.backend.totalCalls == calls)
        #expect(await client.checkEntitlements(.fromCacheOnly).error?.code == .noCachedSnapshot)
        #expect(await client.cachedSnapshot() == nil)
    }

    @Test("a customer's cached answer is never served to another, across a relaunch too")
    func neverServedToAnother() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let alice = try await device.launch(appUserId: "alice")
        #expect(await alice.checkEntitlements().isActive("premium"))
        let bob = try await device.relaunch(appUserId: "bob")
        for policy in FetchPolicy.allCases {
            #expect(await bob.checkEntitlements(policy).isActive("premium") == false)
        }
        #expect(await bob.cachedSnapshot()?.isActive("premium") != true)
    }

    @Test("a fetch for the previous customer that finishes after logIn is neither stored nor shown")
    func inFlightFetchAfterLogIn() async throws {
        let device = TestDevice()
        let client = try await device.launch()
        let anonymous = await client.appUserId
        device.backend.grant("premium", to: anonymous, until: nil)
        device.backend.grant("premium", to: "bob", until: nil)
        device.backend.revokeAll(from: "alice")
        let updates = client.updates()

        device.backend.holdFetches()
        async let pending = client.checkEntitlements()
        var arrivals = device.backend.heldArrivals.makeAsyncIterator()
        _ = await arrivals.next()  // the fetch for the anonymous customer is on its way
        _ = try await client.logIn("alice")  // alice is known (empty): no alias, no premium
        device.backend.releaseHeldFetches()
        let answer = await pending

        #expect(answer.snapshot?.appUserId == "alice")
        #expect(answer.isActive("premium") == false)
        #expect(await device.cache.entry(for: anonymous) == nil)
        #expect(await device.cache.entry(for: "alice")?.snapshot.isActive("premium") == false)
        #expect(answer.source == .cache)  // logIn stored alice's answer fresh; the check started again for her
        #expect(device.backend.asked == [anonymous, "alice"])
        #expect(await client.updateCount == 1)
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next()?.appUserId == "alice")
    }

    @Test("a fetch for the previous customer that finishes after logOut is neither stored nor shown")
    func inFlightFetchAfterLogOut() async throws {
        let device = TestDevice()
        device.backend.grant("premium", to: "alice", until: nil)
        let client = try await device.launch(appUserId: "alice")

        device.backend.holdFetches()
        async let pending = client.checkEntitlements(.fetchCurrent)
        var arrivals = device.backend.heldArrivals.makeAsyncIterator()
        _ = await arrivals.next()
        try await client.logOut()
        device.backend.releaseHeldFetches()
        let answer = await pending

        let anonymous = await client.appUserId
        #expect(answer.snapshot?.appUserId == anonymous)
        #expect(answer.isActive("premium") == false)
        #expect(await device.cache.entry(for: "alice") == nil)
    }

    @Test("an entry the previous customer's check was writing when logIn switched is removed, and not shown")
    func switchWhileWritingEntry() async throws {
        let cache = GatedCache()
        let device = TestDevice(cache: cache)
        let client = try await device.launch()
        let anonymous = await client.appUserId
        device.backend.grant("premium", to: anonymous, until: nil)
        device.backend.revokeAll(from: "alice")

        await cache.arm(.entry)
        async let pending = client.checkEntitlements()
        var arrivals = cache.heldArrivals.makeAsyncIterator()
        _ = await arrivals.next()  // the anonymous customer's entry is being written
        _ = try await client.logIn("alice")
        await cache.release()
        let answer = await pending

        #expect(answer.snapshot?.appUserId == "alice")
        #expect(answer.isActive("premium") == false)
        #expect(await cache.entry(for: anonymous) == nil)
        #expect(await client.updateCount == 1)
    }

    @Test("an answer for the previous customer that was being evaluated when logIn switched is not shown")
    func switchWhileEvaluating() async throws {
        let cache = GatedCache()
        let device = TestDevice(cache: cache)
        let client = try await device.launch()
        let anonymous = await client.appUserId
        device.backend.grant("premium", to: anonymous, until: nil)
        device.backend.revokeAll(from: "alice")

        await cache.arm(.floor)  // the first answer raises the floor from nothing: it is written
        async let pending = client.checkEntitlements()
        var arrivals = cache.heldArrivals.makeAsyncIterator()
        _ = await arrivals.next()
        _ = try await client.logIn("alice")
        await cache.release()
        let answer = await pending

        #expect(answer.snapshot?.appUserId == "alice")
        #expect(answer.isActive("premium") == false)
        #expect(await client.updateCount == 1)
    }

    @Test("ids that are canonically equivalent but different bytes are different customers")
    func canonicallyEquivalentIds() async throws {
        let composed = "jos\u{E9}"  // é as one scalar
        let decomposed = "jose\u{301}"  // e + combining acute accent: == in Swift, other bytes on the wire
        #expect(composed == decomposed)
        let device = TestDevice()
        device.backend.grant("premium", to: composed, until: nil)
        let client = try await device.launch(appUserId: composed)
        #expect(await client.checkEntitlements().isActive("premium"))

        let result = try await client.logIn(decomposed)
        #expect(result.created)
        #expect(result.snapshot.isActive("premium") == false)
        #expect(device.backend.calls(.logIn) == 1)
        #expect(await device.cache.entry(for: composed) == nil)

        let relaunched = try await device.relaunch(appUserId: composed)  // decomposed's entry is on the device
        let cached = await relaunched.checkEntitlements(.fromCacheOnly)
        #expect(cached.snapshot == nil)
        #expect(cached.error?.code == .noCachedSnapshot)
        #expect(await relaunched.checkEntitlements().isActive("premium"))
    }
}

@Suite("In-memory cache", .timeLimit(.minutes(5)))
struct InMemoryCacheTests {
    @Test("entries are keyed by the id's bytes: canonically equivalent ids do not share an entry")
    func keyedByBytes() async {
        let cache = InMemoryEntitlementCache()
        let snapshot = EntitlementSnapshot(provider: .revenueCat, evaluatedAt: Date(timeIntervalSince1970: 0))
        await cache.store(
            EntitlementCacheEntry(snapshot: snapshot, writtenAt: .distantPast, newestRequestDate: nil), for: "jos\u{E9}"
        )
        #expect(await cache.entry(for: "jos\u{E9}") != nil)
        #expect(await cache.entry(for: "jose\u{301}") == nil)
        #expect(await cache.appUserIdsWithEntries() == ["jos\u{E9}"])
    }
}
