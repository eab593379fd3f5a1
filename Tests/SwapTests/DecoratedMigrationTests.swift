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

/// Forwards every call to the provider it wraps and counts them, as an app's logging or metrics wrapper would.
final class CountingProvider: EntitlementProvider, @unchecked Sendable {
    let wrapped: any EntitlementProvider
    private let lock = NSLock()
    private var count = 0

    init(wrapping wrapped: any EntitlementProvider) { self.wrapped = wrapped }

    var calls: Int { lock.withLock { count } }

    private func counted() { lock.withLock { count += 1 } }

    var provider: ProviderID { wrapped.provider }
    var storageNamespace: String { wrapped.storageNamespace }
    var shadowStorageNamespace: String? { wrapped.shadowStorageNamespace }
    func clientCache(in cache: any EntitlementCache) -> any EntitlementCache { wrapped.clientCache(in: cache) }
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
