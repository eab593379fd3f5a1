/// Two snapshots of one customer merged into one answer: access when either grants it.
package enum SnapshotMerge {
    /// The `.eitherGrants` answer of a ``MigratingProvider`` (`swap.md`): the union of both snapshots'
    /// entitlements (by id); for an id both have, the active one wins, both active → the later expiration
    /// (none beats any date), a tie → `served`'s (``GrantPrecedence/givesLongerAccess(than:)``). Everything
    /// outside the entitlements, and the provider id, comes from `served`; `shadow` is evaluated at its
    /// instant first.
    package static func eitherGrants(served: EntitlementSnapshot, shadow: EntitlementSnapshot) -> EntitlementSnapshot {
        union(served, shadow) { $0.givesLongerAccess(than: $1) }
    }

    /// A ledger's sources merged (`ledger.md`): as ``eitherGrants(served:shadow:)``, but for an id both have
    /// the grant ``GrantPrecedence`` puts first, lapsed grants included (the later expiry, then the later
    /// purchase); a tie → `first`'s.
    package static func latestAccess(first: EntitlementSnapshot, then next: EntitlementSnapshot) -> EntitlementSnapshot
    {
        union(first, next) { $0.wins(over: $1) }
    }

    /// `base` with `other`'s entitlements added, each replacing `base`'s grant of its id when `replaces`
    /// says it comes first.
    private static func union(
        _ base: EntitlementSnapshot, _ other: EntitlementSnapshot,
        replaces: (GrantPrecedence, GrantPrecedence) -> Bool
    ) -> EntitlementSnapshot {
        var merged = base
        for candidate in other.evaluated(at: base.evaluatedAt).all {
            guard let current = merged[candidate.id] else {
                merged.updateEntitlement(candidate)
                continue
            }
            if replaces(GrantPrecedence(candidate), GrantPrecedence(current)) { merged.updateEntitlement(candidate) }
        }
        return merged
    }
}
