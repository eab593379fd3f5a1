import EntitlementKit
import Foundation
import Testing

/// The cut-over cache's rules one by one (swap.md "Cut-over and the cache"), on a real cache directory: the
/// floor in both parts, the entry removed from both, the stored id written and read as one change.
@Suite("Cut-over cache: both parts", .timeLimit(.minutes(5)))
struct CutOverCacheTests {
    static let now = CutOverIdentityTests.now
    let old = ScriptedProvider("revenuecat", at: now)
    let new = ScriptedProvider("qonversion", at: now)

    /// The cache a client of `provider` uses over the directory.
    func clientCache(_ provider: MigratingProvider, _ directory: CutOverIdentityTests.CacheDirectory) throws
        -> any EntitlementCache
    {
        provider.clientCache(in: try directory.open())
    }

    /// One backend's part of the directory, as a client of that backend alone opens it.
    func part(_ provider: any EntitlementProvider, _ directory: CutOverIdentityTests.CacheDirectory) throws
        -> any EntitlementCache
    {
        try directory.open().partition(for: provider)
    }

    @Test func theFloorIsTheHigherOfThePartsAndNeitherIsEverLowered() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        let high = Self.now.addingTimeInterval(3_600)
        try await part(new, directory).storeTrustedFloor(high)
        try await part(old, directory).storeTrustedFloor(Self.now)
        let cache = try clientCache(MigratingProvider(serving: old, shadow: new), directory)
        #expect(await cache.trustedFloor() == high, "the shadow's part holds the newer server time")

        try await cache.storeTrustedFloor(Self.now.addingTimeInterval(60))
        #expect(try await part(old, directory).trustedFloor() == high, "the serving part is raised to the higher")
        #expect(try await part(new, directory).trustedFloor() == high, "the shadow part is never lowered")
    }

    @Test func theFloorIsWrittenToTheShadowsPart() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        let floor = Self.now.addingTimeInterval(120)
        let cache = try clientCache(MigratingProvider(serving: old, shadow: new), directory)
        try await cache.storeTrustedFloor(floor)
        // The new backend alone, once the old one is retired, keeps the device's newest server time.
        #expect(try await part(new, directory).trustedFloor() == floor)
        #expect(try await part(old, directory).trustedFloor() == floor)
    }

    @Test func storingTheAppUserIdKeepsTheFloorInEveryPart() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        let floor = Self.now.addingTimeInterval(120)
        let alone = try part(old, directory)
        try await alone.storeTrustedFloor(floor)
        try await alone.storeAppUserId("alice")
        #expect(await alone.trustedFloor() == floor, "a write of one part keeps its floor")

        let cache = try clientCache(MigratingProvider(serving: old, shadow: new), directory)
        try await cache.storeAppUserId("bob")
        #expect(try await part(old, directory).trustedFloor() == floor, "the pair write keeps the floor")
        #expect(try await part(new, directory).trustedFloor() == floor, "and gives it to the other part")
        #expect(try await part(new, directory).storedAppUserId() == "bob")
    }

    @Test func aLogOutRemovesTheCustomersEntryFromTheShadowsPartToo() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        // The old backend alone served alice: her entry is in its part.
        let alone = try await EntitlementClient(provider: old, cache: try directory.open())
        _ = try await alone.logIn("alice")
        #expect(try await part(old, directory).entry(for: "alice") != nil)

        let cutOver = try await EntitlementClient(
            provider: MigratingProvider(serving: new, shadow: old), cache: try directory.open())
        #expect(await cutOver.appUserId == "alice")
        try await cutOver.logOut()
        #expect(try await part(old, directory).entry(for: "alice") == nil, "a roll-back must not find her answer")
    }

    @Test func theOldBackendsAnonymousIdIsNotTakenUpAtACutOverStraightFromTheOldBackendAlone() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        let alone = try await EntitlementClient(provider: old, cache: try directory.open())
        let oldAnonymous = await alone.appUserId
        #expect(old.isAnonymous(oldAnonymous))

        let cutOver = try await EntitlementClient(
            provider: MigratingProvider(serving: new, shadow: old), cache: try directory.open())
        #expect(new.isAnonymous(await cutOver.appUserId), "an anonymous customer of the new backend's form")
        #expect(await cutOver.appUserId != oldAnonymous)
    }

    @Test func theAnonymousCustomerKeepsOneIdInEachFormAcrossEveryStage() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        let oldAnonymous = try await EntitlementClientFactory.launch(old, directory).appUserId
        let shadowing = try await EntitlementClientFactory.launch(
            MigratingProvider(serving: old, shadow: new), directory)
        #expect(await shadowing.appUserId == oldAnonymous)
        let newAnonymous = try #require(try await part(new, directory).storedAppUserId())
        #expect(new.isAnonymous(newAnonymous))

        let cutOver = try await EntitlementClientFactory.launch(MigratingProvider(serving: new, shadow: old), directory)
        #expect(await cutOver.appUserId == newAnonymous, "the shadow's anonymous id, which heard the writes")
        let rolledBack = try await EntitlementClientFactory.launch(
            MigratingProvider(serving: old, shadow: new), directory)
        #expect(await rolledBack.appUserId == oldAnonymous)
        #expect(try await EntitlementClientFactory.launch(new, directory).appUserId == newAnonymous)
    }

    @Test func theStartingIdIsNotWrittenBackOverAnotherProcessesNewerChange() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        let provider = MigratingProvider(serving: old, shadow: new)
        try await clientCache(provider, directory).storeAppUserId("alice")
        let starting = try clientCache(provider, directory)
        // Another process, on the cut-over configuration, logs bob in after this launch read alice.
        try await clientCache(MigratingProvider(serving: new, shadow: old), directory).storeAppUserId("bob")
        try await (starting as? CutOverCache)?.recordStartingAppUserId("alice")
        #expect(await starting.storedAppUserId() == "bob")
        #expect(try await part(old, directory).storedAppUserId() == "bob")
    }

    @Test func aRunningClientFollowsAChangeThatReachedOnlyItsShadowsPart() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        let app = try await EntitlementClient(
            provider: MigratingProvider(serving: old, shadow: new), cache: try directory.open())
        _ = try await app.logIn("alice")
        _ = await app.checkEntitlements()  // alice's fresh entry in memory answers the next check
        // Another process changed the customer and wrote only the new backend's part (a writer on the cut-over
        // configuration killed after its first part, or the new backend alone).
        try await part(new, directory).storeAppUserId("bob")
        _ = await app.checkEntitlements()
        #expect(await app.appUserId == "bob", "the stamp covers both parts")
    }

    @Test func aWriteOfOnePartAloneIsNewerThanThePairBeforeIt() async throws {
        let directory = CutOverIdentityTests.CacheDirectory()
        try await clientCache(MigratingProvider(serving: old, shadow: new), directory).storeAppUserId("alice")
        // The new backend alone (a roll-forward past the shadow stage) logs carol in: its part alone.
        try await part(new, directory).storeAppUserId("carol")
        let rolledBack = try clientCache(MigratingProvider(serving: old, shadow: new), directory)
        #expect(await rolledBack.storedAppUserId() == "carol")
    }
}

/// Launches a client as an app does at start (the configured provider, the directory's cache).
enum EntitlementClientFactory {
    static func launch(_ provider: any EntitlementProvider, _ directory: CutOverIdentityTests.CacheDirectory)
        async throws -> EntitlementClient
    {
        try await EntitlementClient(provider: provider, cache: try directory.open())
    }
}
