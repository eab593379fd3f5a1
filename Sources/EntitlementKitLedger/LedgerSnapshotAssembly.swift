import EntitlementKit
import Foundation

/// One customer's unified snapshot from the threads it owns: each source's own mapping over its threads,
/// then merged (`SnapshotMerge.latestAccess`: per entitlement the grant ``GrantPrecedence`` puts first, the
/// latest access, lapsed grants included).
/// Unlike a migration's merge, no transaction is dropped (ledger.md "every transaction listed"): the
/// winning grant lists the transactions of every source's grant of that entitlement, and the one-time
/// purchases of every source are kept — both oldest first, as the model says.
struct LedgerSnapshotAssembly: Sendable {
    let sources: [LedgerSourceID: any LedgerSource]

    func snapshot(of threads: [LedgerThread], appUserId: String, originalAppUserId: String?, at instant: Date)
        throws(LedgerRefusal) -> EntitlementSnapshot
    {
        let records = threads.flatMap(\.records)
        var merged = EntitlementSnapshot(
            provider: .ledger, appUserId: appUserId, originalAppUserId: originalAppUserId,
            requestDate: records.map(\.instant).max(), evaluatedAt: instant,
            verification: !records.isEmpty && records.allSatisfy(\.isVerified) ? .verified : .notRequested)
        let bySource = Dictionary(grouping: threads, by: \.id.source)
        // Per entitlement, each source's grant's transactions; a grant from one source alone keeps its list.
        var transactionsByEntitlement: [String: [[Transaction]]] = [:]
        var oneTimeSources = 0
        for sourceID in bySource.keys.sorted() {
            guard let source = sources[sourceID] else {
                throw LedgerRefusal(
                    .unknownSource, "the ledger holds purchases of source \(sourceID.rawValue), which is not configured"
                )
            }
            let part = try source.snapshot(of: bySource[sourceID] ?? [], at: instant)
            merged = SnapshotMerge.latestAccess(first: merged, then: part)
            merged.nonSubscriptionTransactions += part.nonSubscriptionTransactions
            if !part.nonSubscriptionTransactions.isEmpty { oneTimeSources += 1 }
            for grant in part.evaluated(at: instant).all {
                transactionsByEntitlement[grant.id, default: []].append(grant.transactions)
            }
        }
        for var grant in merged.all {
            guard let lists = transactionsByEntitlement[grant.id], lists.count > 1 else { continue }
            grant.transactions = Self.oldestFirst(lists.flatMap { $0 })
            merged.updateEntitlement(grant)
        }
        if oneTimeSources > 1 {
            merged.nonSubscriptionTransactions = Self.oldestFirst(merged.nonSubscriptionTransactions)
        }
        return merged
    }

    /// Oldest first by transaction date (undated last), keeping each source's own order among equals; a
    /// transaction two grants share is listed once.
    private static func oldestFirst(_ transactions: [Transaction]) -> [Transaction] {
        var unique: [Transaction] = []
        for transaction in transactions where !unique.contains(transaction) { unique.append(transaction) }
        return unique.enumerated().sorted { left, right in
            switch (left.element.transactionDate, right.element.transactionDate) {
            case (let a?, let b?) where a != b: return a < b
            case (.some, nil): return true
            case (nil, .some): return false
            default: return left.offset < right.offset
            }
        }.map(\.element)
    }
}
