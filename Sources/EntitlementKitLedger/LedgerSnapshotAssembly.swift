import EntitlementKit
import Foundation

/// One customer's unified snapshot from the threads it owns: each source's own mapping over its threads,
/// then merged as a migration's `eitherGrants` merges two backends (per entitlement the latest access).
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
        for sourceID in bySource.keys.sorted() {
            guard let source = sources[sourceID] else {
                throw LedgerRefusal(
                    .unknownSource, "the ledger holds purchases of source \(sourceID.rawValue), which is not configured"
                )
            }
            let part = try source.snapshot(of: bySource[sourceID] ?? [], at: instant)
            merged = SnapshotMerge.eitherGrants(served: merged, shadow: part)
            merged.nonSubscriptionTransactions += part.nonSubscriptionTransactions
        }
        return merged
    }
}
