import EntitlementKit
import Foundation

// The wire model → the unified snapshot, rule by rule as unified-snapshot.md states them for RevenueCat.
// The places where the result deliberately differs from RevenueCat's own SDK are listed in the
// RevenueCatMapping DocC article.

extension RevenueCatResponse {
    /// The unified snapshot of this response evaluated at `instant`.
    func snapshot(provider: ProviderID, at instant: Date) -> EntitlementSnapshot {
        // An entitlement whose product is in neither `subscriptions` nor `non_subscriptions` is left out,
        // as RevenueCat's SDKs do: without its purchase nothing but the dates would be known.
        var entitlements: [Entitlement] = []
        entitlements.reserveCapacity(subscriber.entitlements.count)
        for record in subscriber.entitlements.values {
            guard let purchase = subscriber.purchase(forProduct: record.productIdentifier) else { continue }
            entitlements.append(Entitlement(revenueCat: record, joined: purchase, at: instant))
        }
        return EntitlementSnapshot(
            provider: provider,
            appUserId: subscriber.originalAppUserId,
            originalAppUserId: subscriber.originalAppUserId,
            requestDate: requestDate,
            evaluatedAt: instant,
            firstSeen: subscriber.firstSeen,
            managementURL: subscriber.managementURL,
            originalApplicationVersion: subscriber.originalApplicationVersion,
            originalPurchaseDate: subscriber.originalPurchaseDate,
            entitlements: consume entitlements,
            nonSubscriptionTransactions: subscriber.nonSubscriptionPurchasesOldestFirst.map(
                Transaction.init(revenueCatOneTime:))
        )
    }
}

extension Entitlement {
    /// One entitlement from its record and the purchase its `product_identifier` names.
    ///
    /// Access and its end come from the entitlement's own `expires_date` (the server's verdict, which
    /// already includes store grace periods and refund revocations); everything about how it was bought
    /// comes from the joined purchase.
    init(
        revenueCat record: borrowing RevenueCatEntitlementRecord, joined purchase: borrowing RevenueCatPurchase,
        at instant: Date
    ) {
        // Taken out of the purchase once and lent to the rules below: each `purchase.subscription` copies it.
        let subscription = purchase.subscription
        let store = Store(revenueCat: purchase.store)
        // A one-time purchase has no period; RevenueCat calls it normal.
        let periodType = subscription.map { PeriodType(revenueCat: $0.periodType) } ?? .normal
        // A one-time purchase carries no ownership; RevenueCat assumes the customer bought it.
        let ownershipType = subscription.map { OwnershipType(revenueCat: $0.ownershipType) } ?? .purchased
        self.init(
            id: record.id,
            productId: record.productIdentifier,
            productPlanId: subscription?.productPlanIdentifier,
            renewState: .revenueCat(
                expirationDate: record.expiresDate, subscription: subscription, store: store, periodType: periodType),
            periodType: periodType,
            store: store,
            storeRaw: purchase.store.text,
            isSandbox: purchase.isSandbox,
            grantType: GrantType(revenueCatStore: store, ownership: ownershipType),
            ownershipType: ownershipType,
            originalPurchaseDate: purchase.originalPurchaseDate,
            latestPurchaseDate: record.purchaseDate,
            trialStartDate: periodType == .trial ? subscription?.purchaseDate : nil,
            expirationDate: record.expiresDate,
            gracePeriodExpirationDate: subscription?.gracePeriodExpiresDate ?? record.gracePeriodExpiresDate,
            unsubscribeDetectedAt: subscription?.unsubscribeDetectedAt,
            billingIssueDetectedAt: subscription?.billingIssuesDetectedAt,
            refundedAt: subscription?.refundedAt,
            transactions: [
                Transaction(
                    revenueCatJoined: purchase, subscription: subscription, productId: record.productIdentifier,
                    periodType: periodType, store: store, ownershipType: ownershipType)
            ],
            at: instant
        )
    }
}

extension RenewState {
    /// The unified RevenueCat rule: no expiration date, a one-time purchase, a `promotional` store or a
    /// `prepaid` period → `nonRenewable`; else a billing issue → `billingIssue`; else an unsubscribe →
    /// `cancelled`; else `willRenew`. The expiration date is the entitlement's, the one the snapshot shows;
    /// `subscription` is the joined purchase's, `nil` for a one-time purchase.
    static func revenueCat(
        expirationDate: Date?, subscription: RevenueCatSubscription?, store: Store, periodType: PeriodType
    ) -> RenewState {
        guard let subscription, expirationDate != nil, store != .promotional, periodType != .prepaid else {
            return .nonRenewable
        }
        if subscription.billingIssuesDetectedAt != nil { return .billingIssue }
        if subscription.unsubscribeDetectedAt != nil { return .cancelled }
        return .willRenew
    }
}

extension TransactionType {
    /// What the latest transaction of a joined purchase did, as far as the v1 body tells:
    /// a one-time purchase → `unknown` (RevenueCat does not say whether it was consumable, and a product
    /// bought several times may be either); a `trial` period → `trialStarted`; an `intro` period →
    /// `introStarted`; otherwise `subscriptionStarted` when the period began the subscription
    /// (`purchase_date == original_purchase_date`), `subscriptionRenewed` when it began later, and
    /// `unknown` without an `original_purchase_date` to tell. `subscription` is the joined purchase's, `nil`
    /// for a one-time purchase.
    static func revenueCat(subscription: RevenueCatSubscription?, periodType: PeriodType) -> TransactionType {
        guard let subscription else { return .unknown }
        if periodType == .trial { return .trialStarted }
        if periodType == .intro { return .introStarted }
        guard let original = subscription.originalPurchaseDate else { return .unknown }
        return original == subscription.purchaseDate ? .subscriptionStarted : .subscriptionRenewed
    }
}

extension Transaction {
    /// The transaction synthesized for an entitlement from its joined purchase's latest period; `subscription`
    /// is the purchase's subscription, `nil` for a one-time purchase.
    init(
        revenueCatJoined purchase: borrowing RevenueCatPurchase, subscription: RevenueCatSubscription?,
        productId: String,
        periodType: PeriodType, store: Store, ownershipType: OwnershipType
    ) {
        self.init(
            transactionId: purchase.storeTransactionId,
            originalTransactionId: Self.revenueCatOriginalTransactionId(of: purchase),
            productId: productId,
            type: .revenueCat(subscription: subscription, periodType: periodType),
            transactionDate: purchase.purchaseDate,
            expirationDate: subscription?.expiresDate,
            revocationDate: subscription?.refundedAt,
            environment: Environment(revenueCatSandbox: purchase.isSandbox),
            ownershipType: ownershipType,
            store: store
        )
    }

    /// One element of `non_subscriptions`.
    init(revenueCatOneTime purchase: RevenueCatNonSubscription) {
        self.init(
            revenueCatJoined: .nonSubscription(purchase), subscription: nil, productId: purchase.productId,
            periodType: .normal, store: Store(revenueCat: purchase.store), ownershipType: .purchased)
    }

    /// The v1 body names only the latest store transaction. When that transaction opened the chain
    /// (`purchase_date == original_purchase_date`) it *is* the original transaction; otherwise the
    /// original id is not in the document and stays `nil` rather than guessed.
    private static func revenueCatOriginalTransactionId(of purchase: RevenueCatPurchase) -> String? {
        guard let original = purchase.originalPurchaseDate, original == purchase.purchaseDate else { return nil }
        return purchase.storeTransactionId
    }
}
