import EntitlementKit
import Foundation

// The document → the unified snapshot, in the order store-direct.md gives the rules: each transaction
// once; the latest transaction of each original transaction (subscription chain); per entitlement, the
// candidate that grants the latest access. Deliberate differences from Apple's library and the vendors
// are listed in the AppStoreMapping DocC article.

struct AppStoreSnapshotMapping {
    let catalog: EntitlementCatalog
    let document: AppStoreDocument

    /// The snapshot evaluated at `instant`.
    func snapshot(provider: ProviderID, at instant: Date) -> EntitlementSnapshot {
        let transactions = Self.uniqueTransactions(document.transactions)
        let latestOfChain = Self.latestPerChain(transactions.filter(\.type.canGrant))

        var byEntitlement: [String: [AppStoreTransaction]] = [:]
        var nonSubscription: [AppStoreTransaction] = []
        for transaction in transactions {
            let ids =
                transaction.type.canGrant ? catalog.entitlementIds(forProduct: transaction.productId ?? "") : []
            if ids.isEmpty {
                nonSubscription.append(transaction)
            } else {
                for id in ids { byEntitlement[id, default: []].append(transaction) }
            }
        }

        let entitlements = byEntitlement.compactMap { id, transactions in
            entitlement(id: id, transactions: transactions.sorted(by: Self.oldestFirst), latestOfChain, at: instant)
        }
        return EntitlementSnapshot(
            provider: provider,
            appUserId: Self.appAccountToken(of: transactions),
            requestDate: document.newestSignedDate,
            evaluatedAt: instant,
            verification: document.verification,
            entitlements: entitlements,
            nonSubscriptionTransactions: nonSubscription.sorted(by: Self.oldestFirst).map { transaction in
                Transaction(appStore: transaction, expirationDate: transaction.expiresDate)
            }
        )
    }

    /// One entitlement from every transaction of its products (oldest first).
    ///
    /// The candidates are those transactions that are the latest of their chain. When there is none —
    /// every one was followed in its chain by another product's transaction (an upgrade) — the latest
    /// of them stands, granting nothing, so the entitlement still says what happened to it.
    private func entitlement(
        id: String, transactions: [AppStoreTransaction], _ latestOfChain: [String: AppStoreTransaction],
        at instant: Date
    ) -> Entitlement? {
        var grants = transactions.compactMap { transaction -> AppStoreGrant? in
            guard let chain = transaction.originalTransactionId, latestOfChain[chain]?.order == transaction.order
            else { return nil }
            return grant(transaction, state: document.states[chain], isSuperseded: false)
        }
        if grants.isEmpty, let last = transactions.last {
            grants = [grant(last, state: nil, isSuperseded: true)]
        }
        guard let winner = grants.max(by: { Self.grantsLess($0, $1, at: instant) }) else { return nil }
        let chosen = winner.transaction
        let periodType = PeriodType(appStore: chosen)
        return Entitlement(
            id: id,
            productId: chosen.productId,
            renewState: winner.renewState,
            periodType: periodType,
            store: .appStore,
            isSandbox: chosen.environment != "Production",
            grantType: GrantType(appStore: chosen),
            ownershipType: OwnershipType(appStore: chosen.inAppOwnershipType),
            originalPurchaseDate: chosen.originalPurchaseDate,
            latestPurchaseDate: chosen.purchaseDate,
            trialStartDate: periodType == .trial ? chosen.purchaseDate : nil,
            expirationDate: winner.expirationDate,
            gracePeriodExpirationDate: winner.state?.renewalInfo?.gracePeriodExpiresDate,
            refundedAt: winner.refundedAt,
            cancellationReason: winner.cancellation?.reason,
            cancellationReasonRaw: winner.cancellation?.raw,
            transactions: transactions.map { transaction in
                Transaction(appStore: transaction, expirationDate: transactionExpiry(transaction))
            },
            denial: winner.denial,
            at: instant
        )
    }

    private func grant(_ transaction: AppStoreTransaction, state: AppStoreSubscriptionState?, isSuperseded: Bool)
        -> AppStoreGrant
    {
        AppStoreGrant(
            transaction, state: state, isSuperseded: isSuperseded,
            duration: transaction.productId.flatMap { catalog.duration(forProduct: $0) })
    }

    /// A transaction's own end: `expiresDate`, or for a non-renewing product the purchase plus the
    /// catalog's duration (no grace period: that belongs to the entitlement).
    private func transactionExpiry(_ transaction: AppStoreTransaction) -> Date? {
        guard transaction.type == .nonRenewing else { return transaction.expiresDate }
        guard let purchase = transaction.purchaseDate, let productId = transaction.productId else { return nil }
        return catalog.duration(forProduct: productId)?.added(to: purchase)
    }

    // MARK: Selection

    /// Each `transactionId` once (statuses and history repeat the latest transactions). Of two copies the
    /// one Apple signed later is kept (it may carry a refund the older one predates).
    static func uniqueTransactions(_ transactions: [AppStoreTransaction]) -> [AppStoreTransaction] {
        var kept: [AppStoreTransaction] = []
        var indexById: [String: Int] = [:]
        for transaction in transactions {
            guard let id = transaction.transactionId else {
                kept.append(transaction)
                continue
            }
            if let index = indexById[id] {
                let existing = kept[index]
                if let newer = transaction.signedDate, existing.signedDate.map({ newer > $0 }) ?? true {
                    kept[index] = transaction
                }
            } else {
                indexById[id] = kept.count
                kept.append(transaction)
            }
        }
        return kept
    }

    /// The latest transaction (by `purchaseDate`) of each original transaction, across products. Of two
    /// bought at the same instant, one not upgraded wins, then the one read last.
    static func latestPerChain(_ transactions: [AppStoreTransaction]) -> [String: AppStoreTransaction] {
        var latest: [String: AppStoreTransaction] = [:]
        for transaction in transactions {
            guard let chain = transaction.originalTransactionId else { continue }
            if let current = latest[chain], !isLater(transaction, than: current) { continue }
            latest[chain] = transaction
        }
        return latest
    }

    private static func isLater(_ a: AppStoreTransaction, than b: AppStoreTransaction) -> Bool {
        let dateA = a.purchaseDate ?? .distantPast
        let dateB = b.purchaseDate ?? .distantPast
        if dateA != dateB { return dateA > dateB }
        if a.isUpgraded != b.isUpgraded { return !a.isUpgraded }
        return a.order > b.order
    }

    /// Whether `a`, met before `b`, grants less than it at `instant` (``GrantPrecedence``; a tie keeps `a`).
    static func grantsLess(_ a: AppStoreGrant, _ b: AppStoreGrant, at instant: Date) -> Bool {
        b.precedence(at: instant).wins(over: a.precedence(at: instant))
    }

    /// Oldest first by `purchaseDate` (a transaction without one first), then in reading order.
    static func oldestFirst(_ a: AppStoreTransaction, _ b: AppStoreTransaction) -> Bool {
        let dateA = a.purchaseDate ?? .distantPast
        let dateB = b.purchaseDate ?? .distantPast
        if dateA != dateB { return dateA < dateB }
        return a.order < b.order
    }

    /// The `appAccountToken` of the newest purchase that carries one.
    static func appAccountToken(of transactions: [AppStoreTransaction]) -> String? {
        transactions.filter { $0.appAccountToken != nil }.max(by: oldestFirst)?.appAccountToken
    }
}

extension Transaction {
    /// One App Store transaction; `expirationDate` is decided by the caller (a non-renewing product's
    /// comes from the catalog).
    init(appStore transaction: AppStoreTransaction, expirationDate: Date?) {
        self.init(
            transactionId: transaction.transactionId,
            originalTransactionId: transaction.originalTransactionId,
            productId: transaction.productId,
            type: TransactionType(appStore: transaction),
            transactionDate: transaction.purchaseDate,
            expirationDate: expirationDate,
            revocationDate: transaction.revocationDate,
            environment: Environment(appStore: transaction.environment),
            ownershipType: OwnershipType(appStore: transaction.inAppOwnershipType),
            offerCode: transaction.offerType == 3 ? transaction.offerIdentifier : nil,
            store: .appStore
        )
    }
}
