import Foundation

extension Entitlement {
    /// The unified activity rule, the only one every adapter uses.
    ///
    /// - A `denial` (the backend grants nothing whatever the dates say: a refunded lifetime purchase, a
    ///   store state that grants nothing, a vendor flag that says inactive): inactive.
    /// - Otherwise no expiration date: active.
    /// - Otherwise active while `instant <= expirationDate`: access still holds *at* the expiry instant
    ///   and ends one millisecond later. Where a backend sends an explicit flag, access needs the flag
    ///   **and** the date: a stale `active: 1` past its expiry is inactive, and `active: 0` is a denial.
    ///
    /// Grace periods and refunds arrive through the expiration date or the denial; there is no second rule.
    public static func isActive(expirationDate: Date?, denial: Denial?, at instant: Date) -> Bool {
        if denial != nil { return false }
        guard let expirationDate else { return true }
        return instant <= expirationDate
    }

    /// Why the customer has access at ``evaluatedAt``, or why not; computed from the same facts as
    /// ``isActive`` (``AccessReason/grantsAccess`` equals it), never stored.
    ///
    /// ``AccessReason/denied(_:raw:)`` when ``denial`` is set; else ``AccessReason/lifetime`` without an
    /// expiry; else, at or before the expiry, ``AccessReason/inGracePeriod(until:)`` when the expiry is the
    /// end of a billing grace period (``gracePeriodExpirationDate`` equals ``expirationDate`` and the renew
    /// state is ``RenewState/billingIssue``), otherwise ``AccessReason/activeUntil(_:)``; after it,
    /// ``AccessReason/expired(at:)``.
    public var accessReason: AccessReason {
        if let denial { return .denied(denial.code, raw: denial.raw) }
        guard let expirationDate else { return .lifetime }
        guard evaluatedAt <= expirationDate else { return .expired(at: expirationDate) }
        if renewState == .billingIssue, gracePeriodExpirationDate == expirationDate {
            return .inGracePeriod(until: expirationDate)
        }
        return .activeUntil(expirationDate)
    }

    /// This entitlement judged at another instant, earlier or later, without the backend's document.
    ///
    /// Only ``evaluatedAt`` changes: the facts ``isActive`` is computed from (``expirationDate`` and
    /// ``denial``) are kept, so the answer is the one the rule gives at `instant` — exactly what mapping
    /// the original document at `instant` would give.
    public func evaluated(at instant: Date) -> Entitlement {
        var copy = self
        copy.evaluatedAt = instant
        return copy
    }
}
