import Foundation

extension Entitlement {
    /// The unified activity rule, the only one every adapter uses.
    ///
    /// - No expiration date: active, unless the backend's own flag says inactive (a refunded lifetime
    ///   purchase).
    /// - Otherwise active while `instant <= expirationDate`: access still holds *at* the expiry instant
    ///   and ends one millisecond later.
    /// - Where a backend sends an explicit flag, access needs the flag **and** the date: a stale
    ///   `active: 1` past its expiry is inactive.
    ///
    /// Grace periods and refunds arrive through the expiration date or the flag; there is no second rule.
    public static func isActive(expirationDate: Date?, vendorFlag: Bool?, at instant: Date) -> Bool {
        if vendorFlag == false { return false }
        guard let expirationDate else { return true }
        return instant <= expirationDate
    }

    /// This entitlement judged at another instant, earlier or later, without the backend's document.
    ///
    /// Only ``evaluatedAt`` changes: the facts ``isActive`` is computed from (``expirationDate`` and
    /// ``isRevoked``) are kept, so the answer is the one the rule gives at `instant` — exactly what mapping
    /// the original document at `instant` would give.
    public func evaluated(at instant: Date) -> Entitlement {
        var copy = self
        copy.evaluatedAt = instant
        return copy
    }
}
