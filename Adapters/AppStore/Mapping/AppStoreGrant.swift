import EntitlementKit
import Foundation

/// What one transaction grants, judged by the rules of store-direct.md: its end of access, whether it is
/// revoked, how it renews, why it ended. A candidate for the entitlements its product unlocks.
struct AppStoreGrant: Sendable {
    /// The transaction judged.
    var transaction: AppStoreTransaction
    /// What the statuses said about its chain — only for the chain's latest transaction, which the
    /// renewal info and the status describe.
    var state: AppStoreSubscriptionState?
    /// The end of access: `expiresDate` (or a later grace period end), the purchase plus the catalog's
    /// duration, or `nil` for a non-consumable and for a non-renewing product without a duration.
    var expirationDate: Date?
    /// Why access is off whatever the date says, or `nil` when the date decides.
    var denial: Denial?
    /// The refund date, for a refund.
    var refundedAt: Date?
    /// Why it ended or will end, and the value that said so.
    var cancellation: (reason: CancellationReason, raw: String?)?

    /// Judges `transaction`.
    ///
    /// - Parameters:
    ///   - isSuperseded: a later transaction of the same chain exists (an upgrade, a cross-grade at
    ///     renewal): this one grants nothing.
    ///   - duration: the catalog's duration for a non-renewing product.
    init(
        _ transaction: AppStoreTransaction, state: AppStoreSubscriptionState?, isSuperseded: Bool,
        duration: ISODuration?
    ) {
        self.transaction = transaction
        self.state = state
        let renewal = state?.renewalInfo
        switch transaction.type {
        case .autoRenewable:
            var end = transaction.expiresDate
            if let grace = renewal?.gracePeriodExpiresDate, end.map({ grace > $0 }) ?? true { end = grace }
            expirationDate = end
        case .nonRenewing:
            expirationDate = transaction.purchaseDate.flatMap { purchase in duration?.added(to: purchase) }
        case .nonConsumable, .consumable, .unknown:
            expirationDate = nil
        }

        let refund = Self.refund(of: transaction)
        refundedAt = refund != nil ? transaction.revocationDate : nil
        if let refund {
            cancellation = (.refunded, refund)
        } else if let revocationType = transaction.revocationType {
            // `FAMILY_REVOKE` (a family member lost the organiser's purchase) and any type this version
            // does not know: access ends, but it is no refund.
            cancellation = (.unknown, revocationType)
        } else if transaction.isUpgraded {
            cancellation = (.upgraded, nil)
        } else if let intent = renewal?.expirationIntent {
            cancellation = (Self.reason(expirationIntent: intent), String(intent))
        } else {
            cancellation = nil
        }

        denial = Self.denial(
            of: transaction, refund: refund, status: state?.status, isSuperseded: isSuperseded,
            lapsedNonRenewing: transaction.type == .nonRenewing && expirationDate == nil)
    }

    /// Whether it grants access at `instant`.
    func isActive(at instant: Date) -> Bool {
        Entitlement.isActive(expirationDate: expirationDate, denial: denial, at: instant)
    }

    /// Its place among the grants of one entitlement at `instant`.
    func precedence(at instant: Date) -> GrantPrecedence {
        GrantPrecedence(
            isActive: isActive(at: instant), expirationDate: expirationDate, purchaseDate: transaction.purchaseDate)
    }

    /// Why a transaction grants nothing whatever its dates say (the mapping article's Denials list), the
    /// first that applies: a refund → `refunded` (raw the `revocationType`, or the `revocationReason`
    /// sent without one); `FAMILY_REVOKE` → `revoked`; another `revocationType` → `unknown` (raw the
    /// type); a `revocationDate` alone → `unknown`; status 5 (revoked) → `revoked` (raw `5`); `isUpgraded`,
    /// or a later transaction of its chain → `upgraded`; a type that cannot grant, or a non-renewing
    /// product without a catalog duration → `unknown`.
    private static func denial(
        of transaction: AppStoreTransaction, refund: String?, status: Int64?, isSuperseded: Bool,
        lapsedNonRenewing: Bool
    ) -> Denial? {
        if let refund { return Denial(.refunded, raw: refund) }
        switch transaction.revocationType {
        case "FAMILY_REVOKE"?: return Denial(.revoked, raw: "FAMILY_REVOKE")
        case let other?: return Denial(.unknown, raw: other)
        case nil: break
        }
        if transaction.revocationDate != nil { return Denial(.unknown) }
        if status == 5 { return Denial(.revoked, raw: "5") }
        if transaction.isUpgraded || isSuperseded { return Denial(.upgraded) }
        if !transaction.type.canGrant || lapsedNonRenewing { return Denial(.unknown) }
        return nil
    }

    /// How it renews: not auto-renewable → `nonRenewable`; status 3 or 4, or billing retry →
    /// `billingIssue`; `autoRenewStatus` 0 → `cancelled`, 1 → `willRenew`; nothing said → `unknown`.
    var renewState: RenewState {
        guard transaction.type == .autoRenewable else { return .nonRenewable }
        if state?.status == 3 || state?.status == 4 || state?.renewalInfo?.isInBillingRetryPeriod == true {
            return .billingIssue
        }
        switch state?.renewalInfo?.autoRenewStatus {
        case 0: return .cancelled
        case 1: return .willRenew
        default: return .unknown
        }
    }

    /// The raw value that makes it a refund (`REFUND_FULL`, `REFUND_PRORATED`, or a `revocationReason`
    /// sent without a `revocationType`), or `nil`.
    private static func refund(of transaction: AppStoreTransaction) -> String? {
        switch transaction.revocationType {
        case "REFUND_FULL", "REFUND_PRORATED": return transaction.revocationType
        case nil: return transaction.revocationReason.map { String($0) }
        default: return nil
        }
    }

    /// `expirationIntent` 1…4; anything else (5 "other", or a value this version does not know) is
    /// `unknown`.
    private static func reason(expirationIntent: Int64) -> CancellationReason {
        switch expirationIntent {
        case 1: .customerCancelled
        case 2: .billingError
        case 3: .priceIncrease
        case 4: .productUnavailable
        default: .unknown
        }
    }
}
