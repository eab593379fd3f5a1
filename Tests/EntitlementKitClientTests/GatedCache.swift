import EntitlementKit
import Foundation

/// An in-memory cache whose next `store`, `storeTrustedFloor` or `removeEntry` can be made to wait until the test
/// releases it: how a test makes the customer change while the client is writing.
actor GatedCache: EntitlementCache {
    enum Gate {
        case entry, floor, remove
    }

    private let base = InMemoryEntitlementCache()
    private var armed: Gate?
    private var held: CheckedContinuation<Void, Never>?
    private let arrivals: AsyncStream<Void>.Continuation
    /// One element when the armed write arrives and waits.
    nonisolated let heldArrivals: AsyncStream<Void>

    init() {
        (heldArrivals, arrivals) = AsyncStream<Void>.makeStream()
    }

    /// The next write of `gate`'s kind waits for `release()`.
    func arm(_ gate: Gate) {
        armed = gate
    }

    func release() {
        held?.resume()
        held = nil
    }

    private func pass(_ gate: Gate) async {
        guard armed == gate else { return }
        armed = nil
        await withCheckedContinuation { continuation in
            held = continuation
            arrivals.yield()
        }
    }

    func entry(for appUserId: String) async -> EntitlementCacheEntry? {
        await base.entry(for: appUserId)
    }

    func store(_ entry: EntitlementCacheEntry, for appUserId: String) async {
        await pass(.entry)
        await base.store(entry, for: appUserId)
    }

    func removeEntry(for appUserId: String) async {
        await pass(.remove)
        await base.removeEntry(for: appUserId)
    }

    func storedAppUserId() async -> String? {
        await base.storedAppUserId()
    }

    func storeAppUserId(_ appUserId: String) async {
        await base.storeAppUserId(appUserId)
    }

    func trustedFloor() async -> Date? {
        await base.trustedFloor()
    }

    func storeTrustedFloor(_ floor: Date) async {
        await pass(.floor)
        await base.storeTrustedFloor(floor)
    }
}
