import EntitlementKit
import Foundation

// The wire model → the unified snapshot, rule by rule as store-direct.md states them for Google Play. The
// places where the result deliberately differs from Google's documentation and from what the vendors
// report for Play purchases are listed in the GooglePlayMapping DocC article.

/// One thing the customer owns — a subscription's line item or a one-time product — mapped once, before
/// the catalog decides which entitlements it unlocks.
struct PlayOwnedItem: Sendable {
    /// The bare product id.
    var productId: String
    /// The entitlement it grants, with its product id as a placeholder id.
    var grant: Entitlement
    /// Its transaction.
    var transaction: Transaction
    /// A consumed one-time product: a consumable, which never unlocks an entitlement.
    var isConsumable: Bool
    /// Whether it decides access: `false` for every purchase of a chain but the latest.
    var decides: Bool
}

extension PlayPurchases {
    /// The unified snapshot of these purchases evaluated at `instant`, with `catalog` naming which
    /// products unlock which entitlements.
    func snapshot(provider: ProviderID, catalog: EntitlementCatalog, at instant: Date) throws(DocumentError)
        -> EntitlementSnapshot
    {
        let chains = try PlaySubscriptionChains(subscriptions)
        var items: [PlayOwnedItem] = []
        for (index, subscription) in subscriptions.enumerated() {
            for item in subscription.lineItems {
                items.append(
                    PlayOwnedItem(
                        subscription: subscription, item: item,
                        originalToken: chains.originalToken[index], chainStart: chains.chainStart[index],
                        decides: chains.decides[index], at: instant))
            }
        }
        for product in products {
            items.append(PlayOwnedItem(product: product, catalog: catalog, at: instant))
        }

        var grants: [String: [PlayOwnedItem]] = [:]
        var unclaimed: [Transaction] = []
        for item in items {
            let ids = item.isConsumable ? [] : catalog.entitlementIds(forProduct: item.productId)
            if ids.isEmpty { unclaimed.append(item.transaction) }
            for id in ids { grants[id, default: []].append(item) }
        }

        let entitlements = grants.map { id, candidates -> Entitlement in
            let best = candidates.dropFirst().reduce(candidates[0]) { best, candidate in
                candidate.grantsMore(than: best) ? candidate : best
            }
            var entitlement = best.grant
            entitlement.id = id
            entitlement.transactions = candidates.map(\.transaction).sorted(by: Transaction.playOrder)
            return entitlement
        }

        return EntitlementSnapshot(
            provider: provider,
            appUserId: newestAccountId,
            requestDate: nil,
            evaluatedAt: instant,
            verification: .notRequested,
            entitlements: entitlements,
            nonSubscriptionTransactions: unclaimed.sorted(by: Transaction.playOrder)
        )
    }

    /// The obfuscated account id of the newest purchase that sets one (by `startTime`, products by
    /// purchase time; a purchase without a time is the oldest; on a tie the later in the document).
    private var newestAccountId: String? {
        let dated: [(Date?, String?)] =
            subscriptions.map { ($0.startTime, $0.obfuscatedAccountId) }
            + products.map { ($0.purchaseTime, $0.obfuscatedAccountId) }
        var newest: (date: Date, id: String)?
        for (date, id) in dated {
            guard let id else { continue }
            let date = date ?? .distantPast
            if let current = newest, date < current.date { continue }
            newest = (date, id)
        }
        return newest?.id
    }
}

extension PlayOwnedItem {
    /// One line item of a subscription.
    init(
        subscription: PlaySubscriptionPurchase, item: PlayLineItem, originalToken: String?,
        chainStart: Date?, decides: Bool, at instant: Date
    ) {
        let periodType = PeriodType(googlePlay: item)
        let state = subscription.state
        let cancellation = state.carriesCancellation ? subscription.cancellation : nil
        let orderId = item.latestSuccessfulOrderId ?? subscription.latestOrderId
        let environment: Environment = subscription.isTestPurchase ? .sandbox : .production
        var offerCode: String?
        if case .vanityCode(let code)? = item.signupPromotion { offerCode = code }
        // Every state but active, grace period and canceled grants nothing (a store-state denial, raw the
        // state), and so does a purchase a later one of its chain replaced (an upgrade); the others grant
        // until the item's expiry.
        let denial: Denial? =
            if !state.grantsUntilExpiry {
                Denial(.storeState, raw: state.wireValue)
            } else if !decides {
                Denial(.upgraded)
            } else {
                nil
            }
        transaction = Transaction(
            transactionId: orderId,
            originalTransactionId: originalToken,
            productId: item.productId,
            type: TransactionType(googlePlay: item, orderId: orderId, periodType: periodType),
            transactionDate: subscription.startTime,
            expirationDate: item.expiryTime,
            environment: environment,
            ownershipType: .purchased,
            offerCode: offerCode,
            store: .playStore
        )
        grant = Entitlement(
            id: item.productId,
            productId: item.productId,
            productPlanId: item.basePlanId,
            renewState: RenewState(googlePlay: item, state: state),
            periodType: periodType,
            store: .playStore,
            isSandbox: subscription.isTestPurchase,
            grantType: item.signupPromotion == nil ? .purchase : .offerCode,
            ownershipType: .purchased,
            originalPurchaseDate: chainStart,
            latestPurchaseDate: subscription.startTime,
            trialStartDate: periodType == .trial ? subscription.startTime : nil,
            expirationDate: item.expiryTime,
            unsubscribeDetectedAt: cancellation?.userCancelTime,
            cancellationReason: cancellation.map {
                $0.variant.map(CancellationReason.init(googlePlayVariant:)) ?? .unknown
            },
            cancellationReasonRaw: cancellation?.variant,
            transactions: [],
            denial: denial,
            at: instant
        )
        productId = item.productId
        isConsumable = false
        self.decides = decides
    }

    /// One one-time product. A consumed product is a consumable: listed, never an entitlement. Otherwise
    /// it grants while purchased (`purchaseState` 0), not consumed and not fully refunded; a catalog
    /// duration gives it an expiry (`purchaseTimeMillis` + duration).
    init(product: PlayProductPurchase, catalog: EntitlementCatalog, at instant: Date) {
        let isSandbox = product.purchaseType == 0
        let isRefunded = product.refundableQuantity == 0
        isConsumable = product.consumptionState == 1
        // Not purchased (`purchaseState` 1 canceled, 2 pending) → notPaid, raw the state; fully refunded →
        // refunded; consumed → a consumable, never an entitlement (its denial is never shown).
        let denial: Denial? =
            if product.purchaseState != 0 {
                Denial(.notPaid, raw: String(product.purchaseState))
            } else if isRefunded {
                Denial(.refunded)
            } else if product.consumptionState != 0 {
                Denial(.unknown, raw: String(product.consumptionState))
            } else {
                nil
            }
        let expiry = catalog.duration(forProduct: product.productId)?.added(to: product.purchaseTime)
        transaction = Transaction(
            transactionId: product.orderId,
            originalTransactionId: product.token,
            productId: product.productId,
            type: isConsumable ? .consumablePurchase : .nonConsumablePurchase,
            transactionDate: product.purchaseTime,
            expirationDate: expiry,
            environment: isSandbox ? .sandbox : .production,
            ownershipType: .purchased,
            store: .playStore
        )
        grant = Entitlement(
            id: product.productId,
            productId: product.productId,
            renewState: .nonRenewable,
            periodType: .normal,
            store: .playStore,
            isSandbox: isSandbox,
            grantType: product.purchaseType == 1 ? .offerCode : .purchase,
            ownershipType: .purchased,
            originalPurchaseDate: product.purchaseTime,
            latestPurchaseDate: product.purchaseTime,
            expirationDate: expiry,
            transactions: [],
            denial: denial,
            at: instant
        )
        productId = product.productId
        decides = true
    }

    /// Whether this item's grant beats `other`'s (met before it) for one entitlement: the latest purchase of
    /// its chain beats a replaced one; then ``GrantPrecedence`` (a tie keeps the earlier in the document).
    func grantsMore(than other: PlayOwnedItem) -> Bool {
        if decides != other.decides { return decides }
        return grant.winsGrant(over: other.grant)
    }
}

extension Transaction {
    /// Oldest first (a transaction without a date first of all); ties by original id, then id, then product.
    static func playOrder(_ a: Transaction, _ b: Transaction) -> Bool {
        let (dateA, dateB) = (a.transactionDate ?? .distantPast, b.transactionDate ?? .distantPast)
        if dateA != dateB { return dateA < dateB }
        for (x, y) in [
            (a.originalTransactionId, b.originalTransactionId), (a.transactionId, b.transactionId),
            (a.productId, b.productId),
        ] where x != y {
            return (x ?? "").utf8.lexicographicallyPrecedes((y ?? "").utf8)
        }
        return false
    }
}
