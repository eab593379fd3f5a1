import Foundation

extension EntitlementSnapshot {
    /// The snapshot judged at `instant`, earlier or later: ``evaluatedAt`` and every entitlement's
    /// ``Entitlement/evaluatedAt`` move to `instant` (``Entitlement/evaluated(at:)``); nothing else changes.
    ///
    /// This is the one call that re-judges a snapshot. A cached snapshot answers later this way — a
    /// paying customer keeps access offline until the expiration date the backend gave, an expired
    /// entitlement lapses even offline — and an earlier instant is answered just as exactly (a device
    /// clock that ran ahead and was corrected), because access is computed from stored facts.
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
