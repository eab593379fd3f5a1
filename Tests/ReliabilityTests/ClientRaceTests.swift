import EntitlementKit
import Foundation
import TestSupport
import Testing

/// Thousands of concurrent checks, logIns, logOuts, purchases and invalidations on one client (run under
/// ThreadSanitizer in CI). The backend numbers every answer, so the test can tell whose it is and how new.
@Suite(.timeLimit(.minutes(5))) struct ClientRaceTests {
    static let customers = ["alice", "bob", "carol"]
    static let operationsPerWorker = 250
    static let workers = 8

    @Test func concurrentOperationsNeverMixCustomersOrReorderUpdates() async throws {
        let backend = NumberingBackend()
        let cache = GuardedCache()
        let client = try await EntitlementClient(
            provider: backend, cache: cache, appUserId: "alice", freshFor: .seconds(300),
            deviceClock: FixedClock(NumberingBackend.base))

        // Subscribed before any operation; the stream buffers every update until read below.
        let updates = client.updates()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(worker) &+ 1)
                    for _ in 0..<Self.operationsPerWorker {
                        try await Self.randomOperation(on: client, random: &random)
                    }
                }
            }
            try await group.waitForAll()
        }

        // Settle on one customer and check the final answer is theirs.
        _ = try await client.logIn("carol")
        let final = await client.checkEntitlements(.fetchCurrent)
        #expect(final.snapshot?.appUserId == "carol")
        #expect(final.activeEntitlementIds == ["owner:carol"])

        let violations = await cache.violations
        #expect(violations.isEmpty, "stored under another customer: \(violations.prefix(5))")

        // While a customer stays current, updates carry the backend's answers in the order the backend
        // gave them: a slow call that began earlier never shows older data after newer. (A logIn begins a
        // new stretch: one that started long ago may bring an older answer than an earlier session saw,
        // and a logOut in between shows no update of its own.)
        var seen: [(customer: String?, number: Int, logIn: Bool)] = []
        var iterator = updates.makeAsyncIterator()
        for _ in 0..<(await client.updateCount) {
            guard let snapshot = await iterator.next() else { break }
            let logIn = snapshot.originalAppUserId == NumberingBackend.logInMark
            seen.append((snapshot.appUserId, NumberingBackend.number(of: snapshot), logIn))
        }
        var reordered: [String] = []
        var stretch: (customer: String?, newest: Int)?
        for update in seen {
            if let current = stretch, current.customer == update.customer, !update.logIn {
                if update.number < current.newest {
                    reordered.append("\(update.customer ?? "?"): answer \(update.number) after \(current.newest)")
                }
                stretch = (update.customer, max(current.newest, update.number))
            } else {
                stretch = (update.customer, update.number)
            }
        }
        #expect(reordered.isEmpty, "updates out of order: \(reordered.prefix(5))")
        #expect(!seen.isEmpty)
    }

    /// One random operation; every answer it gets must belong to one customer throughout.
    static func randomOperation(on client: EntitlementClient, random: inout SplitMix64) async throws {
        let customer = customers[Int(random.next() % UInt64(customers.count))]
        let receipt = StoreReceipt(store: .appStore, token: "receipt")
        var answers: [EntitlementSnapshot] = []
        switch random.next() % 10 {
        case 0, 1, 2: answers += [await client.checkEntitlements(.cachedOrFetched).snapshot].compactMap { $0 }
        case 3: answers += [await client.checkEntitlements(.fetchCurrent).snapshot].compactMap { $0 }
        case 4: answers += [await client.checkEntitlements(.fromCacheOnly).snapshot].compactMap { $0 }
        case 5: answers += [try? await client.logIn(customer).snapshot].compactMap { $0 }
        case 6: try? await client.logOut()
        case 7:
            answers += [try? await client.recordPurchase(StorePurchase(receipt: receipt, productId: "pro"))]
                .compactMap { $0 }
        case 8: answers += [try? await client.syncPurchases(receipt)].compactMap { $0 }
        default: await client.invalidateCache()
        }
        for snapshot in answers {
            // The backend gives each customer one entitlement, named after them; a logIn to the current
            // customer with nothing cached answers an empty snapshot that grants nothing.
            let own = ["owner:" + (snapshot.appUserId ?? "?")]
            #expect(snapshot.entitlements.isEmpty || snapshot.entitlements.keys.sorted() == own)
        }
    }
}

/// A backend that numbers its answers (1, 2, 3, …) and yields a random number of times before
/// answering, so concurrent calls finish in shuffled order.
final class NumberingBackend: EntitlementProvider, @unchecked Sendable {
    static let base = Date(timeIntervalSince1970: 1_750_000_000)

    let provider = ProviderID.revenueCat
    private let lock = NSLock()
    private var counter = 0

    private func next() -> Int {
        lock.withLock {
            counter += 1
            return counter
        }
    }

    /// The number of the answer `snapshot` came from.
    static func number(of snapshot: EntitlementSnapshot) -> Int {
        Int((snapshot.requestDate ?? base).timeIntervalSince(base))
    }

    /// What `logIn` answers carry as `originalAppUserId`, so the test can tell where a new customer's
    /// stretch of updates begins.
    static let logInMark = "answered a logIn"

    private func answer(for appUserId: String, logIn: Bool = false) async -> EntitlementSnapshot {
        let number = next()
        for _ in 0..<(number % 4) { await Task.yield() }
        let instant = Self.base.addingTimeInterval(TimeInterval(number))
        return EntitlementSnapshot(
            provider: provider, appUserId: appUserId, originalAppUserId: logIn ? Self.logInMark : nil,
            requestDate: instant, evaluatedAt: instant,
            entitlements: [
                Entitlement(
                    id: "owner:" + appUserId, expirationDate: instant.addingTimeInterval(365 * 86_400), at: instant)
            ])
    }

    func makeAnonymousAppUserId() -> String {
        "$RCAnonymousID:" + String(format: "%032x", next())
    }

    func isAnonymous(_ appUserId: String) -> Bool {
        appUserId.hasPrefix("$RCAnonymousID:")
    }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        await answer(for: appUserId)
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        LogInResult(snapshot: await answer(for: newAppUserId, logIn: true), created: false)
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        await answer(for: appUserId)
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        await answer(for: appUserId)
    }
}

/// An in-memory cache that records every entry stored under an id other than its snapshot's own.
actor GuardedCache: EntitlementCache {
    private let storage = InMemoryEntitlementCache()
    private(set) var violations: [String] = []

    func entry(for appUserId: String) async -> EntitlementCacheEntry? {
        await storage.entry(for: appUserId)
    }

    func store(_ entry: EntitlementCacheEntry, for appUserId: String) async throws(EntitlementCacheError) {
        if entry.snapshot.appUserId != appUserId {
            violations.append("\(entry.snapshot.appUserId ?? "nil") under \(appUserId)")
        }
        await storage.store(entry, for: appUserId)
    }

    func removeEntry(for appUserId: String) async { await storage.removeEntry(for: appUserId) }
    func storedAppUserId() async -> String? { await storage.storedAppUserId() }
    func storeAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        await storage.storeAppUserId(appUserId)
    }
    func trustedFloor() async -> Date? { await storage.trustedFloor() }
    func storeTrustedFloor(_ floor: Date) async throws(EntitlementCacheError) {
        await storage.storeTrustedFloor(floor)
    }
}
