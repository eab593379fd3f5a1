import EntitlementKit
import Foundation
import Testing

/// An app's own decorator around a ``MigratingProvider`` (here: counting calls) keeps the migration's cache:
/// the client asks the provider for its cache and its shadow's namespace (protocol requirements the decorator
/// forwards) rather than checking whether the provider it was given is a `MigratingProvider`.
@Suite("A decorated migrating provider keeps the cut-over cache", .timeLimit(.minutes(5)))
struct DecoratedMigrationTests {
    let old = ScriptedProvider("revenuecat", at: CutOverIdentityTests.now)
    let new = ScriptedProvider("qonversion", at: CutOverIdentityTests.now)
    let directory = CutOverIdentityTests.CacheDirectory()

    @Test func theCustomerIsKeptInTheShadowsPartThroughTheDecorator() async throws {
        let decorated = CountingProvider(wrapping: MigratingProvider(serving: old, shadow: new))
        let client = try await EntitlementClient(provider: decorated, cache: try directory.open())
        _ = try await client.logIn("alice")
        #expect(decorated.calls > 0, "the client went through the decorator")
        // Once the old backend is retired, the new one alone must find the customer the device had.
        let shadowsPart = try directory.open().partition(for: new)
        #expect(await shadowsPart.storedAppUserId() == "alice")
    }

    @Test func startingTheShadowThroughTheDecoratorAsksForASync() async throws {
        _ = try await EntitlementClient(provider: old, cache: try directory.open()).logIn("alice")
        let decorated = CountingProvider(wrapping: MigratingProvider(serving: old, shadow: new))
        let client = try await EntitlementClient(provider: decorated, cache: try directory.open())
        #expect(await client.needsPurchaseSync, "a new stage of the migration, seen through the decorator")
    }
}

/// An app's own decorator around the cache a migrating provider gives its client keeps the migration working:
/// the client tells the cache the customer it starts with and the configuration it launches under through
/// requirements of ``EntitlementCache`` that the decorator forwards, not by checking the cache's type.
@Suite("A decorated cut-over cache keeps the shadow in step", .timeLimit(.minutes(5)))
struct DecoratedCutOverCacheTests {
    let old = ScriptedProvider("revenuecat", at: CutOverIdentityTests.now)
    let new = ScriptedProvider("qonversion", at: CutOverIdentityTests.now)
    let directory = CutOverIdentityTests.CacheDirectory()

    @Test func theStartingCustomerReachesTheShadowsPartThroughTheDecorator() async throws {
        // The old backend alone wrote alice into its own part only.
        _ = try await EntitlementClient(provider: old, cache: try directory.open()).logIn("alice")
        #expect(try await directory.open().partition(for: new).storedAppUserId() == nil)
        let provider = CountingProvider(wrapping: MigratingProvider(serving: old, shadow: new), decoratingCache: true)
        let client = try await EntitlementClient(provider: provider, cache: try directory.open())
        #expect(await client.appUserId == "alice")
        #expect(provider.decoratedCaches > 0, "the client used the decorated cache")
        #expect(try await directory.open().partition(for: new).storedAppUserId() == "alice")
    }

    @Test func startingTheShadowThroughADecoratedCacheAsksForASync() async throws {
        _ = try await EntitlementClient(provider: old, cache: try directory.open()).logIn("alice")
        let provider = CountingProvider(wrapping: MigratingProvider(serving: old, shadow: new), decoratingCache: true)
        let client = try await EntitlementClient(provider: provider, cache: try directory.open())
        #expect(await client.needsPurchaseSync, "a new stage of the migration, seen through the decorated cache")
    }
}

/// Passes every requirement of ``EntitlementCache`` to the cache it wraps.
struct ForwardingCache: EntitlementCache {
    let wrapped: any EntitlementCache

    init(wrapping wrapped: any EntitlementCache) { self.wrapped = wrapped }

    func partition(for provider: any EntitlementProvider) -> any EntitlementCache {
        ForwardingCache(wrapping: wrapped.partition(for: provider))
    }
    func sharedStateStamp() -> CacheStamp? { wrapped.sharedStateStamp() }
    func entry(for appUserId: String) async -> EntitlementCacheEntry? { await wrapped.entry(for: appUserId) }
    func store(_ entry: EntitlementCacheEntry, for appUserId: String) async throws(EntitlementCacheError) {
        try await wrapped.store(entry, for: appUserId)
    }
    func removeEntry(for appUserId: String) async { await wrapped.removeEntry(for: appUserId) }
    func storedAppUserId() async -> String? { await wrapped.storedAppUserId() }
    func storeAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        try await wrapped.storeAppUserId(appUserId)
    }
    func trustedFloor() async -> Date? { await wrapped.trustedFloor() }
    func storeTrustedFloor(_ floor: Date) async throws(EntitlementCacheError) {
        try await wrapped.storeTrustedFloor(floor)
    }
    func recordStartingAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        try await wrapped.recordStartingAppUserId(appUserId)
    }
    func recordLaunch(_ configuration: LaunchConfiguration) async -> Bool {
        await wrapped.recordLaunch(configuration)
    }
    func recordPurchasesSynced(_ configuration: LaunchConfiguration) async {
        await wrapped.recordPurchasesSynced(configuration)
    }
}

/// Forwards every call to the provider it wraps and counts them, as an app's logging or metrics wrapper would;
/// with `decoratingCache`, it also hands its client the wrapped provider's cache inside ``ForwardingCache``.
final class CountingProvider: EntitlementProvider, @unchecked Sendable {
    let wrapped: any EntitlementProvider
    private let decoratingCache: Bool
    private let lock = NSLock()
    private var count = 0
    private var cacheCount = 0

    init(wrapping wrapped: any EntitlementProvider, decoratingCache: Bool = false) {
        self.wrapped = wrapped
        self.decoratingCache = decoratingCache
    }

    var calls: Int { lock.withLock { count } }
    var decoratedCaches: Int { lock.withLock { cacheCount } }

    private func counted() { lock.withLock { count += 1 } }

    var provider: ProviderID { wrapped.provider }
    var storageNamespace: String { wrapped.storageNamespace }
    var shadowStorageNamespace: String? { wrapped.shadowStorageNamespace }
    func clientCache(in cache: any EntitlementCache) -> any EntitlementCache {
        guard decoratingCache else { return wrapped.clientCache(in: cache) }
        lock.withLock { cacheCount += 1 }
        return ForwardingCache(wrapping: wrapped.clientCache(in: cache))
    }
    func makeAnonymousAppUserId() -> String { wrapped.makeAnonymousAppUserId() }
    func isAnonymous(_ appUserId: String) -> Bool { wrapped.isAnonymous(appUserId) }
    func makeChangeSignals() -> AsyncStream<Void>? { wrapped.makeChangeSignals() }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        counted()
        return try await wrapped.snapshot(for: appUserId)
    }

    func snapshot(for appUserId: String, revalidating cached: ValidatedSnapshot?) async throws(EntitlementClientError)
        -> ValidatedSnapshot
    {
        counted()
        return try await wrapped.snapshot(for: appUserId, revalidating: cached)
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        counted()
        return try await wrapped.logIn(from: currentAppUserId, to: newAppUserId)
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        counted()
        return try await wrapped.syncPurchases(receipt, for: appUserId)
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        counted()
        return try await wrapped.reportPurchase(purchase, for: appUserId)
    }
}
