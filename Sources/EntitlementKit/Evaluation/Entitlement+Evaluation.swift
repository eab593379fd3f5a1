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

    /// This entitlement judged at another instant, without the backend's document.
    ///
    /// Access that held at the original instant lasts until ``expirationDate`` (inclusive). Access that
    /// did not hold is not granted again: the document's flag is not part of the snapshot, so an
    /// entitlement that was inactive stays inactive at any instant (fail closed). To judge an earlier
    /// instant exactly, map the original document at that instant instead.
    public func evaluated(at instant: Date) -> Entitlement {
        var copy = self
        copy.isActive = isActive && Self.isActive(expirationDate: expirationDate, vendorFlag: nil, at: instant)
        return copy
    }
}
