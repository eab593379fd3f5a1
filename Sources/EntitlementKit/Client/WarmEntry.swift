import Foundation

/// The current customer's cache entry as the client last read or wrote it, kept in the client's actor so
/// that a warm check needs no call to the cache, and the answer it last gave, so that a later check only
/// moves the answer to the new trusted instant.
///
/// Nothing here decides access by itself: every answer is still the facts judged at the trusted instant
/// of its own check. What is remembered is only what cannot change without the client knowing it (it
/// drops this value whenever it writes, invalidates or forgets the entry, and whenever the customer
/// changes), plus the span of instants over which no entitlement's access changes (so a check inside
/// the span has nothing new to offer the update streams).
///
/// A class, owned by the client's actor and never handed out: a warm check then neither copies it nor
/// its snapshots (a copy would hold a second reference to the last answer and force a new one).
final class WarmEntry {
    /// How the entry's fresh window is measured.
    enum Freshness {
        /// Written in this run: fresh while the monotonic clock is before `until`.
        case monotonic(until: Duration)
        /// Written by an earlier run: fresh while `from <= device now < until`.
        case deviceClock(from: Date, until: Date)
        /// Marked stale by `invalidateCache`.
        case never
    }

    /// The instants at which the answer's access is the same as at the instant it was judged:
    /// `after < instant <= through` (an open end is unbounded).
    struct UnchangedAccess {
        let after: Date?
        let through: Date?

        /// Between the newest expiry already passed and the next one to come, among the entitlements
        /// that have an expiry and no denial (those are the only ones whose access moves with time).
        init(_ snapshot: EntitlementSnapshot, at instant: Date) {
            var after: Date?
            var through: Date?
            for entitlement in snapshot.entitlements.values where entitlement.denial == nil {
                guard let expiry = entitlement.expirationDate else { continue }
                if instant <= expiry {
                    through = through.map { min($0, expiry) } ?? expiry
                } else {
                    after = after.map { max($0, expiry) } ?? expiry
                }
            }
            self.after = after
            self.through = through
        }

        func contains(_ instant: Date) -> Bool {
            (after.map { $0 < instant } ?? true) && (through.map { instant <= $0 } ?? true)
        }
    }

    /// The customer (compared byte for byte) and the identity generation the entry belongs to.
    let appUserId: String
    let generation: Int
    /// What the cache holds.
    let entry: EntitlementCacheEntry
    /// What answers: the entry's snapshot, or a newer answer stored in this run.
    let facts: EntitlementSnapshot
    let freshness: Freshness
    /// `facts` judged at the instant of the last answer, and the instants with the same access.
    private var lastAnswer: EntitlementSnapshot?
    private var unchanged: UnchangedAccess?
    /// The update broadcaster's version right after the last answer was offered to it.
    var offeredVersion: Int?

    init(
        appUserId: String, generation: Int, entry: EntitlementCacheEntry, facts: EntitlementSnapshot,
        freshness: Freshness
    ) {
        self.appUserId = appUserId
        self.generation = generation
        self.entry = entry
        self.facts = facts
        self.freshness = freshness
    }

    /// Whether the entry is fresh at these clock readings.
    func isFresh(elapsed: Duration, deviceNow: Date) -> Bool {
        Self.isFresh(freshness, elapsed: elapsed, deviceNow: deviceNow)
    }

    static func isFresh(_ freshness: Freshness, elapsed: Duration, deviceNow: Date) -> Bool {
        switch freshness {
        case .monotonic(let until): elapsed < until
        case .deviceClock(let from, let until): from <= deviceNow && deviceNow < until
        case .never: false
        }
    }

    /// `facts` judged at `instant`, and whether its access may differ from the previous answer's.
    ///
    /// Judging moves `evaluatedAt` in the previous answer's storage: when no caller still holds that
    /// answer, nothing is allocated.
    func answer(at instant: Date) -> (snapshot: EntitlementSnapshot, accessMayDiffer: Bool) {
        guard var snapshot = lastAnswer, let unchanged else {
            let snapshot = facts.evaluated(at: instant)
            lastAnswer = snapshot
            unchanged = UnchangedAccess(snapshot, at: instant)
            return (snapshot, true)
        }
        lastAnswer = nil  // `snapshot` is now the only reference to its storage
        snapshot.evaluatedAt = instant
        var index = snapshot.entitlements.startIndex
        while index != snapshot.entitlements.endIndex {
            snapshot.entitlements.values[index].evaluatedAt = instant
            snapshot.entitlements.formIndex(after: &index)
        }
        let accessMayDiffer = !unchanged.contains(instant)
        if accessMayDiffer { self.unchanged = UnchangedAccess(snapshot, at: instant) }
        lastAnswer = snapshot
        return (snapshot, accessMayDiffer)
    }
}
