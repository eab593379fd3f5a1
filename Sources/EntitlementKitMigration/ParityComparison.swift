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
    /// The baseline's aliases (not the baseline itself: holding it would copy every customer of A at the
    /// first match).
    private let aliasOwners: [AppUserIdKey: AppUserIdKey]
    private let joinsAliases: Bool
    private let customersInA: Int
    private let options: SnapshotDiff.Options
    /// Every id of B seen so far (names, and aliases when joining them) → its line.
    private var seenInB: [AppUserIdKey: Int] = [:]
    /// A's customers already compared → the line of B they were compared with.
    private var matchedWithLine: [AppUserIdKey: Int] = [:]
    private var customersInB = 0
    private var onlyInB: [String] = []
    private var onlyInBWithAccess = 0
    private var matched = 0
    private var accessDifferences: [ParityReport.AccessDifference] = []
    private var fieldDifferences: [ParityReport.FieldDifference] = []
    private var withAccessDifferences = 0
    private var withFieldDifferences = 0

    /// Starts comparing against `baseline`; it joins on aliases when the baseline does
    /// (``ParityBaseline/init(joiningAliases:)``).
    public init(baseline: ParityBaseline, options: SnapshotDiff.Options = .init()) {
        self.unmatched = baseline.customers
        self.aliasOwners = baseline.aliasOwners
        self.joinsAliases = baseline.joinsAliases
        self.customersInA = baseline.count
        self.options = options
    }

    /// Compares B's customer of `snapshot`, read from `line`, with the same customer in A.
    ///
    /// Joining aliases, the same customer is the one of A whose name or aliases hold the snapshot's
    /// `appUserId` or one of its aliases. Fails, counting nothing, when the snapshot has no app user id, an id
    /// of it already appeared in B, its ids lead to two customers of A, or the customer of A they lead to was
    /// already compared with another line of B (two customers on B's side that A holds as one).
    public mutating func compare(_ snapshot: EntitlementSnapshot, line: Int) throws(DocumentError) {
        let key = try ParityBaseline.joinKey(of: snapshot)
        let ids = [key] + (joinsAliases ? ParityBaseline.aliasKeys(of: snapshot) : [])
        for id in ids {
            if let first = seenInB[id] { throw ParityBaseline.duplicate(id.appUserId, firstLine: first) }
        }
        var holders: [AppUserIdKey] = []
        for id in ids {
            if let holder = holder(of: id), !holders.contains(holder) { holders.append(holder) }
        }
        if holders.count > 1 {
            throw DocumentError(
                kind: .inconsistent, path: JSONPath.root.appending("appUserId"),
                value: JSONValue.string(key.appUserId).compactText,
                reason:
                    "joins several customers of A (\(holders.map(\.appUserId).sorted(by: ParityReport.precedes).joined(separator: ", "))), so this record is not compared"
            )
        }
        if let holder = holders.first, let other = matchedWithLine[holder] {
            throw DocumentError(
                kind: .inconsistent, path: JSONPath.root.appending("appUserId"),
                value: JSONValue.string(key.appUserId).compactText,
                reason:
                    "joins the customer \(JSONValue.string(holder.appUserId).compactText) of A, already compared with line \(other), so this record is not compared"
            )
        }
        for id in ids { seenInB[id] = line }
        customersInB += 1
        guard let holder = holders.first, let customerA = unmatched.removeValue(forKey: holder) else {
            onlyInB.append(key.appUserId)
            if snapshot.hasActiveEntitlement { onlyInBWithAccess += 1 }
            return
        }
        matchedWithLine[holder] = line
        matched += 1
        // Named as A names the customer: joined on an alias, B's id may be another of its ids.
        let appUserId = holder.appUserId
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

    /// The customer of A holding `id`, as its name or as an alias.
    private func holder(of id: AppUserIdKey) -> AppUserIdKey? {
        unmatched[id] != nil || matchedWithLine[id] != nil ? id : aliasOwners[id]
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
                customersInB: customersInB,
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
