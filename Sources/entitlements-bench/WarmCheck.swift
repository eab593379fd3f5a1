import EntitlementKit
import Foundation

/// Warm `checkEntitlements` through the runtime client: the customer's entry is fresh in the cache, so
/// every check answers from it (no backend call); what is measured is the client's own cost per check.
enum WarmCheck {
    static func report(snapshot: EntitlementSnapshot, iterations: Int) async throws {
        let cache = InMemoryEntitlementCache()
        let id = "bench-customer"
        await cache.storeAppUserId(id)
        await cache.store(
            EntitlementCacheEntry(snapshot: snapshot, writtenAt: Date(), newestRequestDate: nil), for: id)
        let client = try await EntitlementClient(provider: NoBackend(), cache: cache, appUserId: id)
        for _ in 0..<1_000 { _ = await client.checkEntitlements() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            let check = await client.checkEntitlements()
            samples.append((ContinuousClock.now - start).seconds * 1e9)
            guard check.source == .cache, check.error == nil else {
                throw BenchFailure("the warm check did not answer from the cache: \(String(describing: check.error))")
            }
        }
        print(
            "- warm checkEntitlements (fresh cached entry, \(snapshot.entitlements.count) entitlements): median "
                + "\(format(Statistics.median(samples), 0)) ns, p99 \(format(Statistics.percentile(samples, 99), 0)) ns "
                + "over \(iterations) checks")
        let floor = await hopFloor(iterations: iterations)
        print(
            "- ↳ floor: an empty method of another actor called the same way (executor hop + timer): median "
                + "\(format(Statistics.median(floor), 0)) ns, p99 \(format(Statistics.percentile(floor, 99), 0)) ns")
    }

    /// What any actor method costs the bench's caller: the hop onto the actor's executor and back, and
    /// the two clock reads around it.
    private static func hopFloor(iterations: Int) async -> [Double] {
        let actor = EmptyActor()
        for _ in 0..<1_000 { await actor.nothing() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            await actor.nothing()
            samples.append((ContinuousClock.now - start).seconds * 1e9)
        }
        return samples
    }
}

private actor EmptyActor {
    private var calls = 0

    /// Touches the actor's state so the call cannot be optimised away.
    func nothing() { calls &+= 1 }
}

/// A backend the warm check must never reach.
private struct NoBackend: EntitlementProvider {
    var provider: ProviderID { .revenueCat }

    func makeAnonymousAppUserId() -> String { "$RCAnonymousID:bench" }

    func isAnonymous(_ appUserId: String) -> Bool { appUserId.hasPrefix("$RCAnonymousID:") }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        throw Self.unreachable
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        throw Self.unreachable
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        throw Self.unreachable
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        throw Self.unreachable
    }

    private static let unreachable = EntitlementClientError(.offline, "the benchmark has no backend")
}
