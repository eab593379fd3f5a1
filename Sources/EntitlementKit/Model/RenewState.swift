/// Whether and how an entitlement's subscription continues after the current period.
public struct RenewState: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The subscription is set to renew.
    public static let willRenew = RenewState(rawValue: "willRenew")

    /// Nothing renews: a lifetime or one-time purchase, a promotional grant or a prepaid period.
    public static let nonRenewable = RenewState(rawValue: "nonRenewable")

    /// The store could not charge the customer; access may continue through a grace period.
    public static let billingIssue = RenewState(rawValue: "billingIssue")

    /// Auto-renew was switched off; access continues until the expiration date.
    public static let cancelled = RenewState(rawValue: "cancelled")

    /// The backend did not say, or said something unrecognised.
    public static let unknown = RenewState(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [RenewState] = [.willRenew, .nonRenewable, .billingIssue, .cancelled, .unknown]
}
