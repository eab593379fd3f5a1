/// The `.eitherGrants` answer of a ``MigratingProvider``: access when either backend grants it.
package enum SnapshotMerge {
    /// The union of both snapshots' entitlements (by id); for an id both have, the one ``GrantPrecedence``
    /// puts first (the active one; then no expiry beats any; then the later expiry; then the later purchase),
    /// a tie → `served`'s. Everything outside the
    /// entitlements, and the provider id, comes from `served`; `shadow` is evaluated at its instant first.
    package static func eitherGrants(served: EntitlementSnapshot, shadow: EntitlementSnapshot) -> EntitlementSnapshot {
        var merged = served
        let other = shadow.evaluated(at: served.evaluatedAt)
        for candidate in other.all {
            guard let current = merged[candidate.id] else {
                merged.updateEntitlement(candidate)
                continue
            }
            if candidate.winsGrant(over: current) { merged.updateEntitlement(candidate) }
        }
        return merged
    }
}
