import Foundation

/// Why an entitlement grants access at its instant, or why not (new in schema 3).
///
/// Read it from ``Entitlement/accessReason``: it is computed from the entitlement's facts — its
/// ``Entitlement/denial``, ``Entitlement/expirationDate``, grace period, renew state and
/// ``Entitlement/evaluatedAt`` — and never stored, so it cannot disagree with them. It grants access
/// exactly when ``Entitlement/isActive`` is true.
///
/// ```swift
/// switch snapshot["premium"]?.accessReason {
/// case .inGracePeriod(let until)?: showFixPaymentBanner(until: until)
/// case .denied(.refunded, _)?: showRefundedNotice()
/// default: break
/// }
/// ```
public enum AccessReason: Sendable, Hashable, CustomStringConvertible {
    /// The source grants nothing whatever the dates say (``Entitlement/denial``).
    case denied(Denial.Code, raw: String?)
    /// No expiry: access for good.
    case lifetime
    /// Access through a store's billing grace period, which ends at `until`: the expiration date is the
    /// grace period's end (``Entitlement/gracePeriodExpirationDate`` equals it) and the renew state is
    /// ``RenewState/billingIssue``.
    case inGracePeriod(until: Date)
    /// Access until the expiration date (inclusive).
    case activeUntil(Date)
    /// No access: the expiration date has passed.
    case expired(at: Date)

    /// Whether this reason grants access.
    public var grantsAccess: Bool {
        switch self {
        case .lifetime, .inGracePeriod, .activeUntil: true
        case .denied, .expired: false
        }
    }

    /// The code of the reason in JSON reports: `activeUntil`, `inGracePeriod`, `lifetime`, `expired`, or the
    /// denial's code (`refunded`, `storeState`, …; a code this version does not list is `unknown`).
    public var code: String {
        switch self {
        case .denied(let code, _): code.canonicalRawValue
        case .lifetime: "lifetime"
        case .inGracePeriod: "inGracePeriod"
        case .activeUntil: "activeUntil"
        case .expired: "expired"
        }
    }

    /// The instant the reason names: the end of access, or when it ended; `nil` for a lifetime grant or a
    /// denial.
    public var date: Date? {
        switch self {
        case .inGracePeriod(let date), .activeUntil(let date), .expired(let date): date
        case .denied, .lifetime: nil
        }
    }

    /// How the CLI says it: `until 2025-10-03T12:00:05Z`, `lifetime`, `grace until …`, `expired …`,
    /// `refunded (REFUND_FULL)`, `store state SUBSCRIPTION_STATE_ON_HOLD` (see ``Denial/description``).
    public var description: String {
        switch self {
        case .denied(let code, let raw): Denial(code, raw: raw).description
        case .lifetime: "lifetime"
        case .inGracePeriod(let until): "grace until \(RFC3339.string(from: until))"
        case .activeUntil(let expiry): "until \(RFC3339.string(from: expiry))"
        case .expired(let expiry): "expired \(RFC3339.string(from: expiry))"
        }
    }
}
