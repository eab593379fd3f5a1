/// A store-side event on a store account's latest purchase of a product.
public enum StoreEvent: String, Sendable, Hashable, CaseIterable {
    /// Auto-renew turned off now: access to the end of the current period.
    case cancel
    /// Auto-renew turned back on (while the period lasts).
    case resume
    /// Renewals fail from now; access lasts to the period end plus the grace period.
    case billingIssue
    /// Billing works again; within the grace time the subscription renews from the failed renewal's date.
    case billingRecovered
    /// The latest transaction is revoked now.
    case refund
}
