import EntitlementKit
import Foundation

// The wire model → the unified snapshot, rule by rule as stripe-mapping.md states them. The places where
// the result deliberately differs from how RevenueCat treats Stripe are listed in the StripeMapping DocC
// article.

/// One thing the customer bought — a subscription item or a one-time line item — mapped once, before the
/// catalog decides which entitlements it unlocks.
struct StripeCandidate: Sendable {
    /// The entitlements its catalog entry unlocks; empty when the catalog names none of its keys.
    var entitlementIds: [String]
    /// The entitlement it grants, with its product id as a placeholder id.
    var grant: Entitlement
    /// Its transaction.
    var transaction: Transaction
}

extension StripeObjects {
    /// The unified snapshot of these objects evaluated at `instant`.
    func snapshot(
        provider: ProviderID, catalog: EntitlementCatalog, verification: SnapshotVerification, at instant: Date
    ) -> EntitlementSnapshot {
        var candidates: [StripeCandidate] = []
        for subscription in subscriptions {
            for item in subscription.items {
                candidates.append(
                    StripeCandidate(subscription: subscription, item: item, catalog: catalog, at: instant))
            }
        }
        for session in sessions where session.isPayment {
            let refund = refundState(of: session)
            for price in session.lineItems {
                candidates.append(
                    StripeCandidate(session: session, price: price, refund: refund, catalog: catalog, at: instant))
            }
        }

        var grants: [String: [StripeCandidate]] = [:]
        var order: [String] = []
        var unclaimed: [Transaction] = []
        for candidate in candidates {
            if candidate.entitlementIds.isEmpty { unclaimed.append(candidate.transaction) }
            for id in candidate.entitlementIds {
                if grants[id] == nil { order.append(id) }
                grants[id, default: []].append(candidate)
            }
        }
        let entitlements = order.map { id -> Entitlement in
            let claimants = grants[id] ?? []
            let best = claimants.dropFirst().reduce(claimants[0]) { best, candidate in
                candidate.grant.winsGrant(over: best.grant) ? candidate : best
            }
            var entitlement = best.grant
            entitlement.id = id
            entitlement.transactions = Self.oldestFirst(claimants.map(\.transaction))
            return entitlement
        }

        // Every subscription, then every session of any mode, offers its ids; the newest object wins, and
        // among equal `created` the one read last.
        let offers: [(created: Date, appUserId: String?, customer: String?)] =
            subscriptions.map { ($0.created, $0.appUserId, $0.customer) }
            + sessions.map { ($0.created, $0.appUserId, $0.customer) }
        return EntitlementSnapshot(
            provider: provider,
            appUserId: Self.newest(offers.map { ($0.created, $0.appUserId) }),
            originalAppUserId: Self.newest(offers.map { ($0.created, $0.customer) }),
            requestDate: newestEvent,
            evaluatedAt: instant,
            verification: verification,
            entitlements: entitlements,
            nonSubscriptionTransactions: Self.oldestFirst(unclaimed)
        )
    }

    /// Whether `session`'s payment was fully refunded, and when: any Charge of its PaymentIntent with
    /// `refunded: true` (the expanded `latest_charge`, and every Charge read whose `payment_intent` is the
    /// session's); the date is the latest `created` among those charges' listed refunds.
    func refundState(of session: StripeCheckoutSession) -> StripeRefund? {
        var refunded: [StripeCharge] = []
        if let charge = session.latestCharge, charge.refunded { refunded.append(charge) }
        if let intent = session.paymentIntentId {
            refunded += charges.filter { $0.refunded && $0.paymentIntentId == intent }
        }
        guard !refunded.isEmpty else { return nil }
        return StripeRefund(refundedAt: refunded.flatMap(\.refundDates).max())
    }

    /// Oldest `transactionDate` first; equal dates keep candidate order.
    private static func oldestFirst(_ transactions: [Transaction]) -> [Transaction] {
        transactions.enumerated().sorted { a, b in
            let (dateA, dateB) = (a.element.transactionDate ?? .distantPast, b.element.transactionDate ?? .distantPast)
            return dateA != dateB ? dateA < dateB : a.offset < b.offset
        }.map(\.element)
    }

    /// The offer of the greatest date; on a tie the later one.
    private static func newest(_ offers: [(Date, String?)]) -> String? {
        var newest: (date: Date, value: String)?
        for case (let date, let value?) in offers where date >= newest?.date ?? .distantPast {
            newest = (date, value)
        }
        return newest?.value
    }
}

/// A one-time purchase's full refund.
struct StripeRefund: Sendable, Hashable {
    /// The latest `created` of the refunds listed on the refunded charges; `nil` when none is listed.
    var refundedAt: Date?
}

extension EntitlementCatalog {
    /// The entry for a Stripe price: the first the catalog names of the price id, its `lookup_key`, its
    /// product id — only that one, never a union. Without a catalog the product is its own entitlement.
    func stripeEntry(for price: StripePrice) -> Product? {
        if isIdentity { return Product(entitlementIds: [price.productId]) }
        for key in [price.id, price.lookupKey, price.productId] {
            if let key, let product = products[key] { return product }
        }
        return nil
    }
}

extension StripeSubscription {
    /// The item's period end (the item's own wins), else none.
    func periodEnd(of item: StripeSubscriptionItem) -> Date? { item.currentPeriodEnd ?? currentPeriodEnd }

    /// The item's period start, the same way.
    func periodStart(of item: StripeSubscriptionItem) -> Date? { item.currentPeriodStart ?? currentPeriodStart }

    /// The end of access the item's facts state: the period end, capped by the trial's end while
    /// trialing, by `cancel_at`, by `ended_at`, and for a canceled subscription that never says when it
    /// ended by `canceled_at`.
    func expiration(of item: StripeSubscriptionItem) -> Date? {
        var expiration = periodEnd(of: item)
        func cap(_ date: Date?) {
            guard let date else { return }
            expiration = min(expiration ?? date, date)
        }
        if status == .trialing { cap(trialEnd) }
        cap(cancelAt)
        cap(endedAt)
        if status == .canceled, endedAt == nil { cap(canceledAt) }
        return expiration
    }
}

extension StripeCandidate {
    /// One subscription item.
    init(subscription: StripeSubscription, item: StripeSubscriptionItem, catalog: EntitlementCatalog, at instant: Date)
    {
        let expiration = subscription.expiration(of: item)
        let originalPurchase = subscription.startDate ?? subscription.created
        let periodStart = subscription.periodStart(of: item)
        let latestPurchase = periodStart ?? originalPurchase
        let type: TransactionType
        if subscription.status == .trialing {
            type = .trialStarted
        } else if let periodStart, let start = subscription.startDate, periodStart > start {
            type = .subscriptionRenewed
        } else {
            type = .subscriptionStarted
        }
        let reason = CancellationReason.stripe(subscription)
        entitlementIds = catalog.stripeEntry(for: item.price)?.entitlementIds ?? []
        transaction = Transaction(
            transactionId: subscription.latestInvoice,
            originalTransactionId: subscription.id,
            productId: item.price.productId,
            type: type,
            transactionDate: latestPurchase,
            expirationDate: expiration,
            environment: subscription.livemode ? .production : .sandbox,
            ownershipType: .purchased,
            store: .stripe
        )
        grant = Entitlement(
            id: item.price.productId,
            productId: item.price.productId,
            productPlanId: item.price.id,
            renewState: RenewState(stripe: subscription),
            periodType: PeriodType(stripe: subscription),
            store: .stripe,
            isSandbox: !subscription.livemode,
            grantType: .purchase,
            ownershipType: .purchased,
            originalPurchaseDate: originalPurchase,
            latestPurchaseDate: latestPurchase,
            trialStartDate: subscription.trialStart,
            expirationDate: expiration,
            unsubscribeDetectedAt: subscription.canceledAt,
            cancellationReason: reason,
            cancellationReasonRaw: subscription.cancellationReason,
            transactions: [],
            // Every status but active, trialing and past_due grants nothing whatever its dates: a
            // processor-state denial, raw the status as sent.
            denial: subscription.status.grantsUntilExpiry ? nil : Denial(.storeState, raw: subscription.status.raw),
            at: instant
        )
    }

    /// One line item of a `payment`-mode Checkout Session: granted while complete, paid (or nothing to pay)
    /// and not fully refunded; a catalog duration gives it an expiry (`created` + duration).
    init(
        session: StripeCheckoutSession, price: StripePrice, refund: StripeRefund?, catalog: EntitlementCatalog,
        at instant: Date
    ) {
        let entry = catalog.stripeEntry(for: price)
        let expiration = entry?.duration?.added(to: session.created)
        let paid = session.paymentStatus == "paid" || session.paymentStatus == "no_payment_required"
        // Refunded → `refunded`; not complete → `notPaid` with the status; complete but not paid → `notPaid`
        // with the payment status.
        let denial: Denial?
        if refund != nil {
            denial = Denial(.refunded)
        } else if session.status != "complete" {
            denial = Denial(.notPaid, raw: session.status)
        } else if !paid {
            denial = Denial(.notPaid, raw: session.paymentStatus)
        } else {
            denial = nil
        }
        entitlementIds = entry?.entitlementIds ?? []
        transaction = Transaction(
            transactionId: session.paymentIntentId,
            originalTransactionId: session.id,
            productId: price.productId,
            type: .nonConsumablePurchase,
            transactionDate: session.created,
            expirationDate: expiration,
            revocationDate: refund?.refundedAt,
            environment: session.livemode ? .production : .sandbox,
            ownershipType: .purchased,
            store: .stripe
        )
        grant = Entitlement(
            id: price.productId,
            productId: price.productId,
            productPlanId: price.id,
            renewState: .nonRenewable,
            periodType: .normal,
            store: .stripe,
            isSandbox: !session.livemode,
            grantType: .purchase,
            ownershipType: .purchased,
            originalPurchaseDate: session.created,
            latestPurchaseDate: session.created,
            expirationDate: expiration,
            refundedAt: refund?.refundedAt,
            cancellationReason: refund == nil ? nil : .refunded,
            transactions: [],
            denial: denial,
            at: instant
        )
    }
}
