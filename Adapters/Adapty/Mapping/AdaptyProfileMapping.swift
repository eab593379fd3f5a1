import EntitlementKit
import Foundation

// Shapes A, B and D → the unified snapshot, rule by rule as adapty-mapping.md states them. The places
// where the result deliberately differs from Adapty's own SDKs are listed in the AdaptyMapping article.

extension EntitlementSnapshot {
    /// Maps a read profile of shape A, B or D, evaluated at `instant`.
    init(adapty profile: AdaptyProfile, provider: ProviderID, at instant: Date) {
        var entitlements: [Entitlement] = []
        entitlements.reserveCapacity(profile.accessLevels.count)
        for level in profile.accessLevels {
            // The joined purchase: the subscription of the level's product (it wins when the product is in
            // both containers), else the latest one-time purchase of that product.
            let subscription = profile.subscriptions[level.vendorProductId]
            let oneTime = subscription == nil ? profile.latestNonSubscription(productKey: level.vendorProductId) : nil
            entitlements.append(Entitlement(adapty: level, subscription: subscription, oneTime: oneTime, at: instant))
        }
        self.init(
            provider: provider,
            appUserId: profile.customerUserId ?? profile.profileId,
            originalAppUserId: profile.profileId,
            requestDate: profile.serverTime,
            evaluatedAt: instant,
            entitlements: entitlements,
            nonSubscriptionTransactions: profile.nonSubscriptions.oldestFirst(\.purchasedAt).map {
                Transaction(adaptyOneTime: $0)
            }
        )
    }
}

extension AdaptyProfile {
    /// The latest element of `non_subscriptions[productKey]` by `purchased_at`; of equal dates the later
    /// in the list, and an undated purchase only when none is dated.
    func latestNonSubscription(productKey: String) -> AdaptyNonSubscription? {
        nonSubscriptions.filter { $0.productKey == productKey }.oldestFirst(\.purchasedAt).last
    }
}

extension Array {
    /// Oldest first by `date`; equal dates keep their order, and undated elements come first (they
    /// cannot be the latest).
    func oldestFirst(_ date: (Element) -> Date?) -> [Element] {
        enumerated()
            .sorted { lhs, rhs in
                switch (date(lhs.element), date(rhs.element)) {
                case let (left?, right?) where left != right: left < right
                case (nil, _?): true
                case (_?, nil): false
                default: lhs.offset < rhs.offset
                }
            }
            .map(\.element)
    }
}

extension Entitlement {
    /// One access level of shape A, B or D and the purchase it joins.
    init(
        adapty level: AdaptyAccessLevel, subscription: AdaptySubscription?, oneTime: AdaptyNonSubscription?,
        at instant: Date
    ) {
        let (productId, planId) = AdaptyProductId.split(
            level.vendorProductId, store: level.store, basePlanId: level.basePlanId)
        let store = Store(adapty: level.store)
        let periodType = PeriodType(adaptyIntroductory: level.introductoryOffer, promotional: level.promotionalOffer)
        let latestPurchaseDate = level.renewedAt ?? level.activatedAt
        var transactions: [Transaction] = []
        if let subscription {
            transactions.append(Transaction(adapty: subscription, productId: productId, periodType: periodType))
        } else if let oneTime {
            transactions.append(Transaction(adaptyOneTime: oneTime, type: .nonConsumablePurchase))
        }
        self.init(
            id: level.id,
            productId: productId,
            productPlanId: planId,
            renewState: .adapty(level, isOneTimePurchase: subscription == nil && oneTime != nil),
            periodType: periodType,
            store: store,
            storeRaw: level.store,
            isSandbox: subscription?.isSandbox ?? oneTime?.isSandbox ?? false,
            grantType: GrantType(adaptyStore: level.store),
            ownershipType: .unknown,
            originalPurchaseDate: level.activatedAt,
            latestPurchaseDate: latestPurchaseDate,
            trialStartDate: periodType == .trial ? latestPurchaseDate : nil,
            expirationDate: level.expiresAt,
            // A lifetime level has no grace date, whatever the flag says (it has no expiry to extend).
            gracePeriodExpirationDate: level.isInGracePeriod && !level.isLifetime ? level.expiresAt : nil,
            unsubscribeDetectedAt: level.unsubscribedAt,
            billingIssueDetectedAt: level.billingIssueDetectedAt,
            // `is_refund` wins over the reason sent; the raw value stays what Adapty sent.
            cancellationReason: AdaptyCancellationReason.unifiedRawValue(
                of: level.cancellationReason, isRefund: level.isRefund
            ).map { CancellationReason(rawValue: $0) },
            cancellationReasonRaw: level.cancellationReason.name.nonEmpty,
            transactions: transactions,
            denial: AdaptyDenial.v1(level),
            at: instant
        )
    }
}

extension RenewState {
    /// No expiry, a lifetime level, an Adapty grant or a level backed by a one-time purchase only (it joins
    /// a non-subscription and no subscription: nothing renews it) → nonRenewable; else a billing issue →
    /// billingIssue; else `will_renew` false → cancelled, not sent → unknown, true → willRenew.
    static func adapty(_ level: AdaptyAccessLevel, isOneTimePurchase: Bool) -> RenewState {
        if level.expiresAt == nil || level.isLifetime || level.store == "adapty" || isOneTimePurchase {
            return .nonRenewable
        }
        if level.billingIssueDetectedAt != nil { return .billingIssue }
        switch level.willRenew {
        case false?: return .cancelled
        case nil: return .unknown
        case true?: return .willRenew
        }
    }
}

extension Transaction {
    /// The transaction of an access level's joined subscription: its latest period.
    init(adapty subscription: AdaptySubscription, productId: String?, periodType: PeriodType) {
        let type: TransactionType =
            if subscription.renewedAt != nil {
                .subscriptionRenewed
            } else if periodType == .trial {
                .trialStarted
            } else {
                .subscriptionStarted
            }
        self.init(
            transactionId: subscription.vendorTransactionId,
            originalTransactionId: subscription.vendorOriginalTransactionId,
            productId: productId,
            type: type,
            transactionDate: subscription.renewedAt ?? subscription.activatedAt,
            expirationDate: subscription.expiresAt,
            environment: Environment(adaptySandbox: subscription.isSandbox),
            ownershipType: .unknown,
            store: Store(adapty: subscription.store)
        )
    }

    /// One element of `non_subscriptions`. Adapty says *that* a purchase was refunded (`is_refund`), not
    /// when, so the revocation date stays `nil`.
    init(adaptyOneTime purchase: AdaptyNonSubscription, type: TransactionType? = nil) {
        self.init(
            transactionId: purchase.vendorTransactionId,
            originalTransactionId: purchase.vendorOriginalTransactionId,
            productId: purchase.vendorProductId,
            type: type ?? (purchase.isConsumable ? .consumablePurchase : .nonConsumablePurchase),
            transactionDate: purchase.purchasedAt,
            environment: Environment(adaptySandbox: purchase.isSandbox),
            ownershipType: .unknown,
            store: Store(adapty: purchase.store)
        )
    }
}

/// Adapty's Play product ids.
enum AdaptyProductId {
    /// The bare product and the base plan of an access level's `vendor_product_id`. The SDK-facing
    /// profile writes a Play subscription as `product:base_plan` and sends no `base_plan_id`; that id is
    /// split at its first `:`. Otherwise the id is kept whole, with `base_plan_id` as the plan.
    static func split(_ vendorProductId: String, store: String?, basePlanId: String?) -> (String, String?) {
        guard store == "play_store", basePlanId == nil, let colon = vendorProductId.firstIndex(of: ":"),
            colon != vendorProductId.startIndex
        else { return (vendorProductId, basePlanId) }
        let plan = vendorProductId[vendorProductId.index(after: colon)...]
        return (String(vendorProductId[..<colon]), plan.isEmpty ? nil : String(plan))
    }
}

extension Optional where Wrapped == String {
    /// `nil` for an empty string: an empty value means "not said".
    var nonEmpty: String? {
        switch self {
        case .some(let text) where !text.isEmpty: text
        default: nil
        }
    }
}
