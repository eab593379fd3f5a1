import EntitlementKit
import Foundation

/// One purchase the simulated store made, and its lifecycle: renewals while auto-renew is on and
/// billing works, cancellation, billing issues with grace, recovery, refund.
///
/// Renewal instants are computed from the chain's start (`start + k × period`, calendar months clamped
/// to the month's length), never from the previous renewal, so a subscription started on Jan 31 renews on
/// Feb 28 and then Mar 31. With a trial, the paid chain starts when the trial ends.
struct SimulatedPurchase: Sendable, Hashable {
    let productId: String
    let kind: ScenarioProduct.Kind
    let entitlements: [String]
    let store: Store
    let storeAccount: String
    /// When the customer bought it (the original purchase).
    let purchasedAt: Date
    /// The store's id of the first transaction; renewals get `-<k>` appended.
    let transactionId: String

    /// The end of the trial, when the purchase started with one.
    private(set) var trialEnd: Date?
    /// How many paid periods have begun (0 during a trial).
    private(set) var periodIndex = 0
    /// The end of the current period (trial or paid).
    private(set) var periodEnd: Date?
    /// The start of the current period.
    private(set) var periodStart: Date
    private(set) var autoRenew = true
    private(set) var cancelledAt: Date?
    private(set) var billingIssueAt: Date?
    private(set) var refundedAt: Date?
    /// When the purchase last changed (bought, renewed, or a store event applied): when the store signs its
    /// current state, as StoreKit keeps a transaction's JWS until the App Store changes it.
    private(set) var changedAt: Date

    init(
        product: ScenarioProduct, store: Store, storeAccount: String, at instant: Date, transactionId: String,
        withTrial: Bool
    ) {
        productId = product.id
        kind = product.kind
        entitlements = product.entitlements
        self.store = store
        self.storeAccount = storeAccount
        purchasedAt = instant
        periodStart = instant
        changedAt = instant
        self.transactionId = transactionId
        switch product.kind {
        case .autoRenewable(let period, let trial, _):
            if withTrial, let trial {
                trialEnd = trial.added(to: instant)
                periodEnd = trialEnd
            } else {
                periodIndex = 1
                periodEnd = period.added(to: instant)
            }
        case .nonRenewing(let period):
            periodEnd = period.added(to: instant)
        case .nonConsumable, .consumable:
            periodEnd = nil
        }
    }

    // MARK: What it grants

    /// The end of access: the refund instant; for a subscription in a billing issue the period end
    /// plus the grace period; otherwise the period end (`nil`: lifetime).
    var accessEnd: Date? {
        if let refundedAt { return refundedAt }
        guard let periodEnd else { return nil }
        if billingIssueAt != nil, case .autoRenewable(_, _, let grace) = kind, let grace {
            return grace.added(to: periodEnd)
        }
        return periodEnd
    }

    /// Whether it grants access at `instant` (inclusive at the end).
    func isActive(at instant: Date) -> Bool {
        guard case .consumable = kind else {
            guard let end = accessEnd else { return true }
            return instant <= end
        }
        return false
    }

    /// Whether it is an auto-renewable subscription granting access at `instant`.
    func isActiveSubscription(at instant: Date) -> Bool {
        guard case .autoRenewable = kind else { return false }
        return isActive(at: instant)
    }

    /// The unified renew state the backend reports.
    var renewState: RenewState {
        guard case .autoRenewable = kind else { return .nonRenewable }
        if refundedAt != nil { return .cancelled }
        if billingIssueAt != nil { return .billingIssue }
        return autoRenew ? .willRenew : .cancelled
    }

    /// Whether the current period is the free trial.
    var isInTrial: Bool { trialEnd != nil && periodIndex == 0 }

    /// How many times it has renewed (a trial converting to paid counts as the first renewal).
    var renewalCount: Int {
        guard case .autoRenewable = kind else { return 0 }
        return trialEnd == nil ? periodIndex - 1 : periodIndex
    }

    /// The store's id of the current period's transaction.
    var currentTransactionId: String {
        renewalCount == 0 ? transactionId : "\(transactionId)-\(renewalCount)"
    }

    /// When auto-renew was turned off (a cancellation or a refund).
    var autoRenewDisabledAt: Date? { refundedAt ?? cancelledAt }

    // MARK: Lifecycle

    /// Applies every renewal due by `instant`.
    mutating func settle(at instant: Date) {
        guard case .autoRenewable(let period, _, _) = kind, refundedAt == nil, autoRenew, billingIssueAt == nil,
            let end = periodEnd, end <= instant
        else { return }
        let chainStart = trialEnd ?? purchasedAt
        // Jump close to the right period by the average month, then step (a handful of steps at most).
        let approximate = max(
            Double(period.months) * 2_629_746_000 + Double(period.milliseconds), 1)
        let elapsed = Double(instant.millisecondsSince1970 - chainStart.millisecondsSince1970)
        var index = max(periodIndex + 1, Int(elapsed / approximate) - 1)
        while period.times(index).added(to: chainStart) <= instant { index += 1 }
        while index - 1 > periodIndex, period.times(index - 1).added(to: chainStart) > instant { index -= 1 }
        periodIndex = index
        periodStart = index == 1 && trialEnd == nil ? purchasedAt : period.times(index - 1).added(to: chainStart)
        periodEnd = period.times(index).added(to: chainStart)
        changedAt = max(changedAt, periodStart)
    }

    /// Applies a store event at `instant`. Events on a purchase that no longer grants access change
    /// nothing (a lapsed subscription cannot be resumed or recovered; it is bought again).
    mutating func apply(_ event: StoreEvent, at instant: Date) {
        settle(at: instant)
        let before = self
        defer { if self != before { changedAt = max(changedAt, instant) } }
        guard refundedAt == nil else { return }
        switch event {
        case .refund:
            refundedAt = instant
            autoRenew = false
        case .cancel:
            guard case .autoRenewable = kind, isActive(at: instant), autoRenew else { return }
            autoRenew = false
            cancelledAt = instant
        case .resume:
            guard case .autoRenewable = kind, isActive(at: instant), !autoRenew else { return }
            autoRenew = true
            cancelledAt = nil
            settle(at: instant)
        case .billingIssue:
            // After a cancel there is no next renewal to fail, so no billing issue and no grace period.
            guard case .autoRenewable = kind, isActive(at: instant), autoRenew, billingIssueAt == nil else { return }
            billingIssueAt = instant
        case .billingRecovered:
            guard billingIssueAt != nil, isActive(at: instant) else { return }
            billingIssueAt = nil
            // Renews from the failed renewal's date: the chain's instants never move.
            settle(at: instant)
        }
    }

    /// A repeated purchase of an auto-renewable product that is still active: auto-renew back on.
    mutating func resubscribe(at instant: Date) {
        apply(.resume, at: instant)
    }
}
