import Foundation

extension EntitlementSnapshot {
    /// The snapshot judged at `instant`: every entitlement re-evaluated by
    /// ``Entitlement/evaluated(at:)`` and ``evaluatedAt`` moved to `instant`.
    ///
    /// This is how a cached snapshot answers later: a paying customer keeps access offline until the
    /// expiration date the backend gave, and an expired entitlement lapses even offline.
    public func evaluated(at instant: Date) -> EntitlementSnapshot {
        var copy = self
        copy.evaluatedAt = instant
        copy.entitlements = entitlements.mapValues { $0.evaluated(at: instant) }
        return copy
    }

    /// The snapshot judged at the clock's current instant.
    public func evaluated(by clock: some WallClock) -> EntitlementSnapshot {
        evaluated(at: clock.now())
    }
}
