import EntitlementKit
import Foundation

extension Entitlement {
    /// Maps one read Qonversion entitlement, evaluated at `instant`.
    ///
    /// Access is the server's flag **and** the unified date rule: a flag that says inactive (`0`, `false`)
    /// is a ``Denial/Code/vendorInactive`` denial with the flag's spelling as its raw value, whatever the
    /// dates say. Ownership, sandbox and the refund date
    /// come from the latest transaction (by transaction date); with no transactions they are unknown,
    /// false and `nil`.
    init(qonversion wire: borrowing QonversionWireEntitlement, at instant: Date) {
        let ordered = wire.transactions.oldestFirst()
        // Its fields read in place (by index, not `ordered.last`, which copies the whole transaction).
        let latest = ordered.indices.last
        var transactions: [Transaction] = []
        transactions.reserveCapacity(ordered.count)
        for index in ordered.indices { transactions.append(Transaction(qonversion: ordered[index])) }
        self.init(
            id: wire.id,
            productId: wire.productId,
            renewState: RenewState(qonversion: wire.renewState),
            periodType: PeriodType(qonversion: wire.currentPeriodType),
            store: Store(qonversionSource: wire.source),
            storeRaw: wire.source,
            isSandbox: Environment(qonversion: latest.flatMap { ordered[$0].environment }) == .sandbox,
            grantType: GrantType(qonversion: wire.grantType),
            ownershipType: OwnershipType(qonversion: latest.flatMap { ordered[$0].ownershipType }),
            originalPurchaseDate: wire.startedDate,
            firstPurchaseDate: wire.firstPurchaseDate,
            latestPurchaseDate: wire.lastPurchaseDate,
            trialStartDate: wire.trialStartDate,
            expirationDate: wire.expirationDate,
            unsubscribeDetectedAt: wire.autoRenewDisableDate,
            refundedAt: latest.flatMap { ordered[$0].revokeDate },
            renewsCount: wire.renewsCount,
            lastActivatedOfferCode: wire.lastActivatedOfferCode,
            transactions: transactions,
            denial: wire.activeFlag.isActive ? nil : Denial(.vendorInactive, raw: wire.activeFlag.spelling),
            at: instant
        )
    }
}

extension Transaction {
    /// Maps one `store_transactions` element. Qonversion sends no product id or store per
    /// transaction, so those stay `nil` / `unknown` rather than being copied from the entitlement.
    init(qonversion wire: borrowing QonversionWireTransaction) {
        self.init(
            transactionId: wire.transactionId,
            originalTransactionId: wire.originalTransactionId,
            type: TransactionType(qonversion: wire.type),
            transactionDate: wire.transactionDate,
            expirationDate: wire.expirationDate,
            revocationDate: wire.revokeDate,
            environment: Environment(qonversion: wire.environment),
            ownershipType: OwnershipType(qonversion: wire.ownershipType),
            offerCode: wire.offerCode
        )
    }
}

extension Array where Element == QonversionWireTransaction {
    /// Oldest first by transaction date; equal dates keep wire order, and undated transactions come
    /// first (they cannot be the latest one).
    func oldestFirst() -> [QonversionWireTransaction] {
        // Servers list them oldest first already: keep the array rather than sort a copy.
        guard !isOldestFirst else { return self }
        return enumerated()
            .sorted { lhs, rhs in
                switch (lhs.element.transactionDate, rhs.element.transactionDate) {
                case let (left?, right?) where left != right: left < right
                case (nil, _?): true
                case (_?, nil): false
                default: lhs.offset < rhs.offset
                }
            }
            .map(\.element)
    }

    /// Whether sorting would leave the order as it is: no transaction dated earlier than the one before
    /// it, and no undated one after a dated one (the sort's order is total, so neighbours tell).
    private var isOldestFirst: Bool {
        for index in indices.dropFirst() {
            switch (self[index - 1].transactionDate, self[index].transactionDate) {
            case let (earlier?, later?) where later < earlier: return false
            case (_?, nil): return false
            default: continue
            }
        }
        return true
    }
}
