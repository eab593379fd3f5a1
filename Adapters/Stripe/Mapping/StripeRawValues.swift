import EntitlementKit

// Stripe's enum values and what they mean in the unified model. A value not listed here is never an
// error: it becomes `.unknown` (or, for a status, grants nothing).

extension RenewState {
    /// `active` / `trialing`: `cancelled` when a cancellation is scheduled (`cancel_at_period_end` or
    /// `cancel_at`), else `willRenew`; `past_due`, `unpaid`, `incomplete`, `paused` → `billingIssue`;
    /// `canceled`, `incomplete_expired` → `cancelled`; an unknown status → `unknown`.
    init(stripe subscription: StripeSubscription) {
        switch subscription.status {
        case .active, .trialing:
            self = subscription.cancelAtPeriodEnd || subscription.cancelAt != nil ? .cancelled : .willRenew
        case .pastDue, .unpaid, .incomplete, .paused: self = .billingIssue
        case .canceled, .incompleteExpired: self = .cancelled
        case .unrecognized: self = .unknown
        }
    }
}

extension PeriodType {
    /// `trialing` → `trial`; else a paused collection → `promotional` (service given without payment being
    /// collected); else `normal`.
    init(stripe subscription: StripeSubscription) {
        if subscription.status == .trialing {
            self = .trial
        } else if subscription.collectionPaused {
            self = .promotional
        } else {
            self = .normal
        }
    }
}

extension CancellationReason {
    /// `cancellation_details.reason`: `cancellation_requested` → `customerCancelled` (Stripe does not tell the
    /// customer's request from the merchant's), `payment_failed` → `billingError`, anything else →
    /// `unknown`. Without a reason, `unpaid` and `incomplete_expired` → `billingError`; otherwise none.
    static func stripe(_ subscription: StripeSubscription) -> CancellationReason? {
        if let reason = subscription.cancellationReason {
            switch reason {
            case "cancellation_requested": return .customerCancelled
            case "payment_failed": return .billingError
            default: return .unknown
            }
        }
        switch subscription.status {
        case .unpaid, .incompleteExpired: return .billingError
        default: return nil
        }
    }
}
