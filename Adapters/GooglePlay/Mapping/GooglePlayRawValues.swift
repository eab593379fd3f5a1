import EntitlementKit

// Google Play's enum values and what they mean in the unified model. A value not listed here is never an
// error: it becomes `.unknown` (or, for a subscription state, grants nothing).

extension RenewState {
    /// A line item's renewal: prepaid → `nonRenewable`; in grace period or on hold → `billingIssue`;
    /// canceled, or `autoRenewEnabled` false → `cancelled`; `autoRenewEnabled` true (paused included) →
    /// `willRenew`; nothing said → `unknown`.
    init(googlePlay item: PlayLineItem, state: PlaySubscriptionState) {
        if item.plan == .prepaid {
            self = .nonRenewable
            return
        }
        switch state {
        case .inGracePeriod, .onHold:
            self = .billingIssue
            return
        case .canceled:
            self = .cancelled
            return
        default:
            break
        }
        switch item.plan {
        case .autoRenewing(autoRenewEnabled: false?): self = .cancelled
        case .autoRenewing(autoRenewEnabled: true?): self = .willRenew
        default: self = .unknown
        }
    }
}

extension PeriodType {
    /// A line item's current phase: a prepaid plan → `prepaid`; else `offerPhase` (free trial → `trial`,
    /// introductory price → `intro`, base price or proration period → `normal`, unrecognised → `unknown`);
    /// without `offerPhase`, an `offerId` → `unknown` (the offer's phases may or may not be over: Google
    /// keeps the id after them), and no offer → `normal`.
    init(googlePlay item: PlayLineItem) {
        if item.plan == .prepaid {
            self = .prepaid
            return
        }
        switch item.offerPhase {
        case .freeTrial?: self = .trial
        case .introductoryPrice?: self = .intro
        case .basePrice?, .prorationPeriod?: self = .normal
        case .unrecognized?: self = .unknown
        case nil: self = item.offerId == nil ? .normal : .unknown
        }
    }
}

extension CancellationReason {
    /// `canceledStateContext`'s variant: user → `customerCancelled`, system (a billing problem) →
    /// `billingError`, developer (including a revoke with refund) → `developerCancelled`, replacement →
    /// `replaced`; any other → `unknown`.
    init(googlePlayVariant variant: String) {
        switch variant {
        case "userInitiatedCancellation": self = .customerCancelled
        case "systemInitiatedCancellation": self = .billingError
        case "developerInitiatedCancellation": self = .developerCancelled
        case "replacementCancellation": self = .replaced
        default: self = .unknown
        }
    }
}

extension TransactionType {
    /// What a line item's latest order was. Google's order ids tell a first order (`GPA.1234-5678-9012-34567`)
    /// from a renewal (the same id followed by `..N`): a free-trial phase → `trialStarted`; an introductory
    /// phase → `introStarted`, or `introRenewed` on a renewal order; otherwise `subscriptionStarted` or
    /// `subscriptionRenewed`; no order id → `unknown`.
    init(googlePlay item: PlayLineItem, orderId: String?, periodType: PeriodType) {
        let isRenewal = orderId.map { $0.contains("..") }
        switch (periodType, isRenewal) {
        case (.trial, _): self = .trialStarted
        case (.intro, true?): self = .introRenewed
        case (.intro, _): self = .introStarted
        case (_, true?): self = .subscriptionRenewed
        case (_, false?): self = .subscriptionStarted
        case (_, nil): self = .unknown
        }
    }
}
