import EntitlementKit
import Foundation

/// An in-test backend: answers each customer from a script, can fail, or hang until released; records calls.
final class ScriptedProvider: EntitlementProvider, @unchecked Sendable {
    enum Script {
        case answer([Entitlement])
        case fail(EntitlementClientError.Code)
        case hang
    }

    let provider: ProviderID
    let evaluatedAt: Date
    private let lock = NSLock()
    private var scripts: [String: Script] = [:]
    private var calls: [String] = []
    private var hanging: [CheckedContinuation<Void, Never>] = []
    private var released = false

    init(_ name: String, at evaluatedAt: Date) {
        provider = ProviderID(rawValue: name)
        self.evaluatedAt = evaluatedAt
    }

    func script(_ appUserId: String, _ script: Script) {
        lock.withLock { scripts[appUserId] = script }
    }

    var callLog: [String] { lock.withLock { calls } }

    var hangingCount: Int { lock.withLock { hanging.count } }

    /// Lets every hanging call go on (it then answers with an empty snapshot).
    func release() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            released = true
            defer { hanging = [] }
            return hanging
        }
        for continuation in waiting { continuation.resume() }
    }

    func makeAnonymousAppUserId() -> String { "$anon:\(provider)" }

    func isAnonymous(_ appUserId: String) -> Bool { appUserId.hasPrefix("$anon:\(provider)") }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await respond("snapshot \(appUserId)", appUserId)
    }

    /// Logs the validator offered (`revalidate alice v1`, or `none`) and answers with `v-<provider>`.
    func snapshot(for appUserId: String, revalidating cached: ValidatedSnapshot?) async throws(EntitlementClientError)
        -> ValidatedSnapshot
    {
        let snapshot = try await respond("revalidate \(appUserId) \(cached?.validator ?? "none")", appUserId)
        return ValidatedSnapshot(snapshot: snapshot, validator: "v-\(provider)")
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        LogInResult(
            snapshot: try await respond("logIn \(currentAppUserId) \(newAppUserId)", newAppUserId), created: false)
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await respond("sync \(receipt.token) \(appUserId)", appUserId)
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await respond("purchase \(purchase.productId) \(appUserId)", appUserId)
    }

    private func respond(_ call: String, _ appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        let script = lock.withLock { () -> Script? in
            calls.append(call)
            return scripts[appUserId]
        }
        switch script ?? .answer([]) {
        case .answer(let entitlements):
            return EntitlementSnapshot(
                provider: provider, appUserId: appUserId, evaluatedAt: evaluatedAt, entitlements: entitlements)
        case .fail(let code):
            throw EntitlementClientError(code, "scripted failure of \(provider)")
        case .hang:
            await withCheckedContinuation { continuation in
                let goOn = lock.withLock { () -> Bool in
                    if released { return true }
                    hanging.append(continuation)
                    return false
                }
                if goOn { continuation.resume() }
            }
            return EntitlementSnapshot(provider: provider, appUserId: appUserId, evaluatedAt: evaluatedAt)
        }
    }
}

/// A clock the test moves by hand; sleepers wake when it passes their deadline.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let due = lock.withLock { () -> Bool in
                if deadline <= current { return true }
                sleepers.append((deadline, continuation))
                return false
            }
            if due { continuation.resume() }
        }
    }

    func advance(by duration: Duration) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            current = current.advanced(by: duration)
            let ready = sleepers.filter { $0.deadline <= current }.map(\.continuation)
            sleepers.removeAll { $0.deadline <= current }
            return ready
        }
        for continuation in due { continuation.resume() }
    }

    /// Waits (a bounded number of yields) until someone sleeps on this clock.
    func waitForSleeper() async -> Bool {
        for _ in 0..<100_000 {
            if sleeperCount > 0 { return true }
            await Task.yield()
        }
        return false
    }
}
