import EntitlementKit
import Foundation

// Server API v2 → the unified snapshot. v2 sends no `is_active`, `is_lifetime` or `will_renew`: access
// comes from the date rule and the cancellation reason, the renew state from the dates Adapty sends.

extension EntitlementSnapshot {
    /// Maps a read v2 profile, evaluated at `instant`.
    init(adaptyV2 profile: AdaptyV2Profile, provider: ProviderID, at instant: Date) {
        var entitlements: [Entitlement] = []
        entitlements.reserveCapacity(profile.accessLevels.count)
        for level in profile.accessLevels {
            entitlements.append(
                Entitlement(adaptyV2: level, subscription: profile.subscription(matching: level), at: instant))
        }
        self.init(
            provider: provider,
            appUserId: profile.customerUserId ?? profile.profileId,
            originalAppUserId: profile.profileId,
            requestDate: profile.serverTime,
            evaluatedAt: instant,
            entitlements: entitlements,
            nonSubscriptionTransactions: profile.nonSubscriptions.oldestFirst(\.purchasedAt).map(
                Transaction.init(adaptyV2OneTime:))
        )
    }
}

extension AdaptyV2Profile {
    /// The subscription behind `level`: of those with its `store_product_id`, the one with its
    /// `store_transaction_id` if any, else the latest by `purchased_at` (the later in the list on a tie).
    func subscription(matching level: AdaptyV2AccessLevel) -> AdaptyV2Subscription? {
        let candidates = subscriptions.filter { $0.storeProductId == level.storeProductId }
        if let transactionId = level.storeTransactionId,
            let same = candidates.last(where: { $0.storeTransactionId == transactionId })
        {
            return same
        }
        return candidates.oldestFirst(\.purchasedAt).last
    }
}

extension Entitlement {
    /// One v2 access level and the subscription it matches.
    init(adaptyV2 level: AdaptyV2AccessLevel, subscription: AdaptyV2Subscription?, at instant: Date) {
        let periodType = PeriodType(adaptyOffer: level.offer)
        // Sandbox when the level says so, else when its subscription does.
        let isSandbox =
            Environment(adaptyV2: level.environment) == .sandbox
            || Environment(adaptyV2: subscription?.environment) == .sandbox
        let grace =
            level.gracePeriodExpiresAt ?? subscription?.gracePeriodExpiresAt
            ?? (level.isInGracePeriod ? level.expiresAt : nil)
        self.init(
            id: level.id,
            productId: level.storeProductId,
            productPlanId: level.storeBasePlanId,
            renewState: .adaptyV2(level),
            periodType: periodType,
            store: Store(adapty: level.store),
            storeRaw: level.store,
            isSandbox: isSandbox,
            grantType: GrantType(adaptyStore: level.store),
            ownershipType: .unknown,
            originalPurchaseDate: level.originallyPurchasedAt,
            latestPurchaseDate: level.purchasedAt,
            trialStartDate: periodType == .trial ? level.purchasedAt : nil,
            expirationDate: level.expiresAt,
            gracePeriodExpirationDate: grace,
            unsubscribeDetectedAt: level.renewalCancelledAt,
            billingIssueDetectedAt: level.billingIssueDetectedAt,
            cancellationReason: AdaptyCancellationReason.unifiedRawValue(of: level.cancellationReason).map {
                CancellationReason(rawValue: $0)
            },
            cancellationReasonRaw: level.cancellationReason.name.nonEmpty,
            transactions: subscription.map { [Transaction(adaptyV2: $0, periodType: periodType)] } ?? [],
            // No flag in v2: a refunded or revoked level is inactive whatever its dates say.
            denial: AdaptyDenial.v2(level.cancellationReason.name),
            at: instant
        )
    }
}

extension RenewState {
    /// No expiry or an Adapty grant → nonRenewable; else a billing issue → billingIssue; else a renewal
    /// cancelled → cancelled; else willRenew.
    static func adaptyV2(_ level: AdaptyV2AccessLevel) -> RenewState {
        if level.expiresAt == nil || level.store == "adapty" { return .nonRenewable }
        if level.billingIssueDetectedAt != nil { return .billingIssue }
        if level.renewalCancelledAt != nil { return .cancelled }
        return .willRenew
    }
}

extension Transaction {
    /// A v2 subscription's latest period. v2 has no `renewed_at`: a period bought after the chain's first
    /// purchase (`purchased_at` later than `originally_purchased_at`) is a renewal.
    init(adaptyV2 subscription: AdaptyV2Subscription, periodType: PeriodType) {
        let isRenewal: Bool =
            if let purchased = subscription.purchasedAt, let original = subscription.originallyPurchasedAt {
                purchased > original
            } else {
                false
            }
        let type: TransactionType =
            if isRenewal {
                .subscriptionRenewed
            } else if periodType == .trial {
                .trialStarted
            } else {
                .subscriptionStarted
            }
        self.init(
            transactionId: subscription.storeTransactionId,
            originalTransactionId: subscription.storeOriginalTransactionId,
            productId: subscription.storeProductId,
            type: type,
            transactionDate: subscription.purchasedAt,
            expirationDate: subscription.expiresAt,
            revocationDate: subscription.refundedAt,
            environment: Environment(adaptyV2: subscription.environment),
            ownershipType: .unknown,
            store: Store(adapty: subscription.store)
        )
    }

    /// One v2 `non_subscriptions` element.
    init(adaptyV2OneTime purchase: AdaptyV2NonSubscription) {
        self.init(
            transactionId: purchase.storeTransactionId,
            originalTransactionId: purchase.storeOriginalTransactionId,
            productId: purchase.storeProductId,
            type: purchase.isConsumable ? .consumablePurchase : .nonConsumablePurchase,
            transactionDate: purchase.purchasedAt,
            environment: Environment(adaptyV2: purchase.environment),
            ownershipType: .unknown,
            store: Store(adapty: purchase.store)
        )
    }
}
