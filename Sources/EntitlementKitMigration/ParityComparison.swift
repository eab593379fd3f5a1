import EntitlementKit

/// Side B of a parity check: compares each of the second export's customers with side A as it arrives.
///
/// ```swift
/// var baseline = ParityBaseline()
/// for (line, snapshot) in exportA { try baseline.add(snapshot, line: line) }
/// var comparison = ParityComparison(baseline: baseline, options: .init(expiryTolerance: 60))
/// for (line, snapshot) in exportB { try comparison.compare(snapshot, line: line) }
/// let report = comparison.report()
/// ```
///
/// Every customer is counted exactly once: matched, only in A or only in B. A record of B without an
/// app user id, or with one already seen in B, is refused with an error and counts nowhere; report it
/// to the user.
public struct ParityComparison: Sendable {
    // Keyed by bytes, like the baseline: canonically equivalent ids are distinct customers.
    private var unmatched: [AppUserIdKey: ParityBaseline.Customer]
    private let customersInA: Int
    private let options: SnapshotDiff.Options
    private var seenInB: [AppUserIdKey: Int] = [:]
    private var onlyInB: [String] = []
    private var onlyInBWithAccess = 0
    private var matched = 0
    private var accessDifferences: [ParityReport.AccessDifference] = []
    private var fieldDifferences: [ParityReport.FieldDifference] = []
    private var withAccessDifferences = 0
    private var withFieldDifferences = 0

    /// Starts comparing against `baseline`.
    public init(baseline: ParityBaseline, options: SnapshotDiff.Options = .init()) {
        self.unmatched = baseline.customers
        self.customersInA = baseline.count
        self.options = options
    }

    /// Compares B's customer of `snapshot`, read from `line`, with the same customer in A.
    ///
    /// Fails, counting nothing, when the snapshot has no app user id or its id already appeared in B.
    public mutating func compare(_ snapshot: EntitlementSnapshot, line: Int) throws(DocumentError) {
        let key = try ParityBaseline.joinKey(of: snapshot)
        let appUserId = key.appUserId
        if let first = seenInB[key] {
            throw ParityBaseline.duplicate(appUserId, firstLine: first)
        }
        seenInB[key] = line
        guard let customerA = unmatched.removeValue(forKey: key) else {
            onlyInB.append(appUserId)
            if snapshot.hasActiveEntitlement { onlyInBWithAccess += 1 }
            return
        }
        matched += 1
        let diff = SnapshotDiff(customerA.snapshot, ParityBaseline.comparable(snapshot), options: options)
        if diff.hasAccessDifferences { withAccessDifferences += 1 }
        if !diff.fieldDifferences.isEmpty { withFieldDifferences += 1 }
        accessDifferences += diff.accessDifferences.map {
            ParityReport.AccessDifference(appUserId: appUserId, difference: $0)
        }
        fieldDifferences += diff.fieldDifferences.map {
            ParityReport.FieldDifference(appUserId: appUserId, difference: $0)
        }
    }

    /// The report so far; once every record of B is compared, the customers left in A are only in A.
    public func report() -> ParityReport {
        let onlyInA = unmatched.keys.map(\.appUserId).sorted(by: ParityReport.precedes)
        let onlyInAWithAccess = unmatched.values.filter(\.snapshot.hasActiveEntitlement).count
        let sortedAccess = Self.sortedByCustomer(accessDifferences) { ($0.appUserId, $0.difference.entitlementId) }
        let sortedFields = Self.sortedByCustomer(fieldDifferences) { ($0.appUserId, $0.difference.entitlementId) }
        return ParityReport(
            totals: ParityReport.Totals(
                customersInA: customersInA,
                customersInB: seenInB.count,
                matched: matched,
                onlyInA: onlyInA.count,
                onlyInB: onlyInB.count,
                withAccessDifferences: withAccessDifferences,
                withFieldDifferences: withFieldDifferences
            ),
            onlyInA: onlyInA,
            onlyInB: onlyInB.sorted(by: ParityReport.precedes),
            accessDifferences: sortedAccess,
            fieldDifferences: sortedFields,
            oneSidedCustomersWithAccess: onlyInAWithAccess + onlyInBWithAccess
        )
    }

    /// Sorted by customer, then entitlement; a stable sort keeps each customer's differences in the
    /// diff's own order (entitlement, then field).
    private static func sortedByCustomer<Entry>(_ entries: [Entry], key: (Entry) -> (String, String)) -> [Entry] {
        entries.enumerated().sorted { lhs, rhs in
            let (left, right) = (key(lhs.element), key(rhs.element))
            return ParityReport.precedes((left.0, left.1, lhs.offset), (right.0, right.1, rhs.offset))
        }.map(\.element)
    }
}
