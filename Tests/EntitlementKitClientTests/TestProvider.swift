import EntitlementKit
import Foundation

/// An in-test backend: a real type that keeps customers, answers at the test's true time, counts every
/// call and fails on demand. No mock framework.
final class TestProvider: EntitlementProvider, @unchecked Sendable {
    enum Operation: Hashable {
        case snapshot, logIn, sync, purchase
    }

    /// RevenueCat (ids `$RCAnonymousID:…`) unless made as Qonversion (`QON_…`).
    let provider: ProviderID
    let storageNamespace: String
    private let time: TestTime

    // Guards every stored property below.
    private let lock = NSLock()
    /// Customer (the id's UTF-8 bytes, as a backend compares ids) → entitlement id → expiry (`nil` =
    /// lifetime).
    private var customers: [[UInt8]: [String: Date?]] = [:]
    /// Store token → what a receipt grants when posted.
    private var receipts: [String: [String: Date?]] = [:]
    private var callCounts: [Operation: Int] = [:]
    private var askedIds: [String] = []
    private var logInOriginIds: [String] = []
    private var failure: EntitlementClientError?
    private var anonymousCounter = 0
    private var isHoldingFetches = false
    private var heldFetches: [CheckedContinuation<Void, Never>] = []
    private let arrivals: AsyncStream<Void>.Continuation
    /// The open change-signal streams (``makeChangeSignals()``), by number, and how many have ended.
    private var changeListeners: [Int: AsyncStream<Void>.Continuation] = [:]
    private var changeListenersMade = 0
    private let endedListeners: AsyncStream<Void>.Continuation
    /// One element each time a change-signal stream ends (its listener cancelled it).
    let changeListenerEndings: AsyncStream<Void>
    /// Whether ``makeChangeSignals()`` offers a stream (the protocol's default is none).
    private let pushesChanges: Bool
    /// One element per fetch that arrived while fetches are held.
    let heldArrivals: AsyncStream<Void>

    /// A backend; `namespace` `nil` is the provider's default (its raw value).
    init(time: TestTime, provider: ProviderID = .revenueCat, namespace: String? = nil, pushesChanges: Bool = false) {
        self.time = time
        self.pushesChanges = pushesChanges
        (changeListenerEndings, endedListeners) = AsyncStream<Void>.makeStream()
        self.provider = provider
        storageNamespace = namespace ?? provider.rawValue
        (heldArrivals, arrivals) = AsyncStream<Void>.makeStream()
    }

    // MARK: Test controls

    /// Grants `entitlementId` to `appUserId` until `expiry` (`nil` = lifetime).
    func grant(_ entitlementId: String, to appUserId: String, until expiry: Date?) {
        lock.withLock { customers[Array(appUserId.utf8), default: [:]][entitlementId] = expiry }
    }

    func revokeAll(from appUserId: String) {
        lock.withLock { customers[Array(appUserId.utf8)] = [:] }
    }

    /// What posting the receipt with `token` grants.
    func setReceipt(_ token: String, grants: [String: Date?]) {
        lock.withLock { receipts[token] = grants }
    }

    /// Every backend call fails with `error` until `succeed()`.
    func fail(with error: EntitlementClientError) {
        lock.withLock { failure = error }
    }

    func goOffline() {
        fail(with: EntitlementClientError(.offline, "no connection"))
    }

    func succeed() {
        lock.withLock { failure = nil }
    }

    func calls(_ operation: Operation) -> Int {
        lock.withLock { callCounts[operation, default: 0] }
    }

    var totalCalls: Int {
        lock.withLock { callCounts.values.reduce(0, +) }
    }

    /// The app user ids the backend was asked about, in order.
    var asked: [String] {
        lock.withLock { askedIds }
    }

    /// The `from` id of every logIn, in order.
    var logInOrigins: [String] {
        lock.withLock { logInOriginIds }
    }

    func isKnown(_ appUserId: String) -> Bool {
        lock.withLock { customers[Array(appUserId.utf8)] != nil }
    }

    /// From now on, fetches wait (after taking their snapshot) until `releaseHeldFetches()`.
    func holdFetches() {
        lock.withLock { isHoldingFetches = true }
    }

    /// Signals every open change-signal stream that the answers may have changed (the store pushed a
    /// renewal or refund).
    func pushChange() {
        let listeners = lock.withLock { Array(changeListeners.values) }
        for listener in listeners { listener.yield() }
    }

    /// How many change-signal streams are open.
    var openChangeListeners: Int {
        lock.withLock { changeListeners.count }
    }

    func releaseHeldFetches() {
        let held: [CheckedContinuation<Void, Never>] = lock.withLock {
            isHoldingFetches = false
            defer { heldFetches.removeAll() }
            return heldFetches
        }
        for continuation in held { continuation.resume() }
    }

    // MARK: EntitlementProvider

    func makeAnonymousAppUserId() -> String {
        let number = lock.withLock {
            anonymousCounter += 1
            return anonymousCounter
        }
        let hex = String(number, radix: 16)
        let prefix = provider == .qonversion ? "QON_" : "$RCAnonymousID:"
        return prefix + String(repeating: "0", count: 32 - hex.count) + hex
    }

    func isAnonymous(_ appUserId: String) -> Bool {
        AppUserIdCheck(appUserId).anonymousForm == (provider == .qonversion ? .qonversion : .revenueCat)
    }

    func makeChangeSignals() -> AsyncStream<Void>? {
        guard pushesChanges else { return nil }
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let number = lock.withLock {
            changeListenersMade += 1
            changeListeners[changeListenersMade] = continuation
            return changeListenersMade
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            lock.withLock { _ = changeListeners.removeValue(forKey: number) }
            endedListeners.yield()
        }
        return stream
    }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        let answer = try begin(.snapshot, appUserId) { makeSnapshot(for: appUserId) }
        let mustHold = lock.withLock { isHoldingFetches }
        if mustHold {
            await withCheckedContinuation { continuation in
                lock.withLock { heldFetches.append(continuation) }
                arrivals.yield()
            }
        }
        return answer
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try begin(.logIn, newAppUserId) {
            logInOriginIds.append(currentAppUserId)
            let created = customers[Array(newAppUserId.utf8)] == nil
            if created {
                // An anonymous customer logging in to a new id keeps its purchases (aliasing).
                customers[Array(newAppUserId.utf8)] =
                    isAnonymous(currentAppUserId) ? customers[Array(currentAppUserId.utf8)] ?? [:] : [:]
            }
            return LogInResult(snapshot: makeSnapshot(for: newAppUserId), created: created)
        }
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try begin(.sync, appUserId) {
            for (entitlement, expiry) in receipts[receipt.token] ?? [:] {
                customers[Array(appUserId.utf8), default: [:]][entitlement] = expiry
            }
            return makeSnapshot(for: appUserId)
        }
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try begin(.purchase, appUserId) {
            // Every product grants `premium`; "lifetime" for ever, anything else for 30 days.
            let expiry: Date? = purchase.productId == "lifetime" ? nil : time.now.addingTimeInterval(30 * day)
            customers[Array(appUserId.utf8), default: [:]]["premium"] = expiry
            return makeSnapshot(for: appUserId)
        }
    }

    // MARK: Internals

    /// Counts the call, fails when asked to, else runs `body` under the lock.
    private func begin<T>(_ operation: Operation, _ appUserId: String, _ body: () -> T) throws(EntitlementClientError)
        -> T
    {
        let result: Result<T, EntitlementClientError> = lock.withLock {
            callCounts[operation, default: 0] += 1
            askedIds.append(appUserId)
            if let failure { return .failure(failure) }
            return .success(body())
        }
        return try result.get()
    }

    /// Must be called with the lock held.
    private func makeSnapshot(for appUserId: String) -> EntitlementSnapshot {
        if customers[Array(appUserId.utf8)] == nil { customers[Array(appUserId.utf8)] = [:] }
        let now = time.now
        let entitlements = (customers[Array(appUserId.utf8)] ?? [:]).map { id, expiry in
            Entitlement(id: id, productId: "product-" + id, expirationDate: expiry, at: now)
        }
        return EntitlementSnapshot(
            provider: provider, appUserId: appUserId, requestDate: now, evaluatedAt: now, entitlements: entitlements)
    }
}
