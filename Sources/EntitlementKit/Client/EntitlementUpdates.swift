import Foundation

/// The snapshots an ``EntitlementClient`` answers with, as they change: an `AsyncSequence` made by
/// ``EntitlementClient/updates()``.
///
/// A new stream first yields the client's current answer when it has one — the current customer's last
/// answer in this run or, before any, the entry cached for them by an earlier launch — evaluated now (never
/// earlier than the trusted instant it was answered or read at, plus the time elapsed since, so a device
/// clock set back revives nothing), as RevenueCat's `customerInfoStream` does with its cached customer
/// info: a `for await` loop started after launch shows the state at once. A stream made when there is
/// neither (or right after the customer changed) starts with the next answer. Then it
/// yields each answer that differs from the last one *this stream* yielded,
/// ignoring ``EntitlementSnapshot/requestDate`` and ``EntitlementSnapshot/evaluatedAt`` (so the same
/// access re-checked a minute later yields nothing, while an entitlement that lapsed does). Answers are
/// the snapshots of `checkEntitlements` (including cached ones and fallbacks), `logIn`, `recordPurchase`,
/// `restorePurchases` and `syncPurchases`, and the fetch the client makes on each of its provider's change
/// signals (``EntitlementProvider/makeChangeSignals()``: a renewal or refund the store pushed); a failure
/// without a snapshot, `cachedSnapshot()`, configuration and `logOut` yield nothing. The stream ends when
/// the client is released.
public struct EntitlementUpdates: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = EntitlementSnapshot

    private let stream: AsyncStream<EntitlementSnapshot>

    init(stream: AsyncStream<EntitlementSnapshot>) {
        self.stream = stream
    }

    /// An iterator over the updates.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates ``EntitlementUpdates``.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: AsyncStream<EntitlementSnapshot>.Iterator

        init(base: AsyncStream<EntitlementSnapshot>.Iterator) {
            self.base = base
        }

        /// The next changed snapshot, or `nil` when the client is gone.
        public mutating func next() async -> EntitlementSnapshot? {
            await base.next()
        }
    }
}

/// Fans the client's answers out to its update streams, each filtering out repeats of what it last
/// yielded, and counts what a stream made with the client would have yielded (``EntitlementClient/updateCount``).
///
/// A class with a lock rather than actor state because ``EntitlementClient/updates()`` is `nonisolated`:
/// a stream must be registered before the call returns, or an answer given right after could be missed.
final class UpdateBroadcaster: @unchecked Sendable {
    private struct Subscriber {
        let continuation: AsyncStream<EntitlementSnapshot>.Continuation
        var lastYielded: Comparable?
    }

    // Guards every stored property below.
    private let lock = NSLock()
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriberId = 0
    private var lastCounted: Comparable?
    private var count = 0
    private var isFinished = false
    /// Bumped by every new stream and every answer offered: an answer offered again while it is unchanged
    /// changes nothing (see ``isUnchanged(since:)``).
    private var version = 0
    /// The current customer's last answer (or cached entry) and the monotonic reading when it was taken,
    /// replayed to each new stream (forgotten when the customer changes).
    private var current: (snapshot: EntitlementSnapshot, elapsed: Duration)?
    /// The device clock and the time since the client started, to evaluate a replayed answer at "now":
    /// never before its own instant plus the time elapsed since.
    private let deviceClock: any WallClock
    private let monotonicClock: any MonotonicClock

    init(deviceClock: any WallClock, monotonicClock: any MonotonicClock) {
        self.deviceClock = deviceClock
        self.monotonicClock = monotonicClock
    }

    /// How many snapshots a stream made at the client's creation would have yielded.
    var updateCount: Int {
        lock.withLock { count }
    }

    /// A new stream, registered before it is returned.
    func makeStream() -> EntitlementUpdates {
        let (stream, continuation) = AsyncStream<EntitlementSnapshot>.makeStream(bufferingPolicy: .unbounded)
        let id: Int? = lock.withLock {
            guard !isFinished else { return nil }
            let id = nextSubscriberId
            nextSubscriberId += 1
            // A new stream starts with the current answer, as RevenueCat's `customerInfoStream` does, evaluated
            // now (never earlier than it was answered, so a clock set back revives nothing). Yielded under the
            // lock, so no answer published meanwhile can overtake it.
            var lastYielded: Comparable?
            if let current {
                let since = monotonicClock.elapsed() - current.elapsed
                let earliest = current.snapshot.evaluatedAt.addingTimeInterval(since.timeInterval)
                let replay = current.snapshot.evaluated(at: max(deviceClock.now(), earliest))
                lastYielded = Self.comparable(replay)
                continuation.yield(replay)
            }
            subscribers[id] = Subscriber(continuation: continuation, lastYielded: lastYielded)
            version += 1
            return id
        }
        if let id {
            continuation.onTermination = { [weak self] _ in
                self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) }
            }
        } else {
            continuation.finish()
        }
        return EntitlementUpdates(stream: stream)
    }

    /// Whether nothing was offered and no stream was made since `version` (a value ``publish(_:)``
    /// returned). Then offering again an answer that does not differ from the one offered at `version`
    /// would yield nothing and count nothing, so it can be skipped.
    func isUnchanged(since version: Int) -> Bool {
        lock.withLock { self.version == version }
    }

    /// Offers an answer to every stream. Returns the broadcaster's version right after.
    @discardableResult
    func publish(_ snapshot: EntitlementSnapshot) -> Int {
        let comparable = Self.comparable(snapshot)
        let (receivers, version): ([AsyncStream<EntitlementSnapshot>.Continuation], Int) = lock.withLock {
            self.version += 1
            current = (snapshot, monotonicClock.elapsed())
            if lastCounted != comparable {
                lastCounted = comparable
                count += 1
            }
            var receivers: [AsyncStream<EntitlementSnapshot>.Continuation] = []
            for (id, subscriber) in subscribers where subscriber.lastYielded != comparable {
                subscribers[id]?.lastYielded = comparable
                receivers.append(subscriber.continuation)
            }
            return (receivers, self.version)
        }
        for continuation in receivers { continuation.yield(snapshot) }
        return version
    }

    /// Sets the answer a new stream starts with when nothing was answered yet (`snapshot` is the cached entry
    /// a launch found, evaluated at the trusted instant): not an answer, so nothing is yielded or counted.
    func offerForReplay(_ snapshot: EntitlementSnapshot) {
        lock.withLock {
            if current == nil { current = (snapshot, monotonicClock.elapsed()) }
        }
    }

    /// The customer changed: the previous customer's answer is never replayed to a new stream.
    func forgetCurrent() {
        lock.withLock { current = nil }
    }

    /// Ends every stream (the client is gone).
    func finish() {
        let all: [AsyncStream<EntitlementSnapshot>.Continuation] = lock.withLock {
            isFinished = true
            defer { subscribers.removeAll() }
            return subscribers.values.map(\.continuation)
        }
        for continuation in all { continuation.finish() }
    }

    /// What "differs" compares: the snapshot's facts with the two fields that change on every answer
    /// (`requestDate`, `evaluatedAt`) blanked, and which entitlements are active at its instant.
    struct Comparable: Equatable {
        let facts: EntitlementSnapshot
        let activeEntitlementIds: [String]
    }

    static func comparable(_ snapshot: EntitlementSnapshot) -> Comparable {
        var facts = snapshot.evaluated(at: Date(timeIntervalSince1970: 0))
        facts.requestDate = nil
        return Comparable(facts: facts, activeEntitlementIds: snapshot.activeEntitlementIds)
    }
}
