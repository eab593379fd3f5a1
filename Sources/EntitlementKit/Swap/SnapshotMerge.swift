/// The `.eitherGrants` answer of a ``MigratingProvider``: access when either backend grants it.
package enum SnapshotMerge {
    /// The union of both snapshots' entitlements (by id); for an id both have, the active one wins, both
    /// active → the later expiration (none beats any date), a tie → `served`'s. Everything outside the
    /// entitlements, and the provider id, comes from `served`; `shadow` is evaluated at its instant first.
    package static func eitherGrants(served: EntitlementSnapshot, shadow: EntitlementSnapshot) -> EntitlementSnapshot {
        var merged = served
        let other = shadow.evaluated(at: served.evaluatedAt)
        for candidate in other.all {
            guard let current = merged[candidate.id] else {
                merged.updateEntitlement(candidate)
                continue
            }
            if grantsLonger(candidate, than: current) { merged.updateEntitlement(candidate) }
        }
        return merged
    }

    /// Whether `candidate` should replace `current`: active beats inactive; among active ones, no expiry
    /// beats any, else the later expiry; equal → keep `current`.
    private static func grantsLonger(_ candidate: Entitlement, than current: Entitlement) -> Bool {
        if candidate.isActive != current.isActive { return candidate.isActive }
        guard candidate.isActive else { return false }
        switch (candidate.expirationDate, current.expirationDate) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let a?, let b?): return a > b
        }
    }
}
