/// Shadow reports from many devices added up: totals per outcome, the access-difference rate, and which
/// entitlements and fields disagree most often. What `entitlements shadow-report` prints and gates on.
public struct ShadowReportSummary: Sendable, Hashable {
    /// How often one entitlement (and, for field differences, one field) disagreed.
    public struct Disagreement: Sendable, Hashable {
        /// The entitlement (`premium`).
        public var entitlementId: String
        /// The field (`renewState`); `nil` for an access difference.
        public var field: String?
        /// The reports in which it disagreed.
        public var reports: Int
    }

    /// The reports added.
    public private(set) var reports = 0
    /// The totals, as a device's ``ShadowTally`` keeps them.
    public private(set) var tally = ShadowTally()
    /// `shadowFailed` reports.
    public private(set) var shadowFailed = 0
    /// `shadowTimedOut` reports.
    public private(set) var shadowTimedOut = 0
    /// `writeFailed` reports.
    public private(set) var writeFailed = 0
    private var accessCounts: [String: Int] = [:]
    private var fieldCounts: [FieldKey: Int] = [:]

    private struct FieldKey: Sendable, Hashable {
        var entitlementId: String
        var field: String
    }

    /// An empty summary.
    public init() {}

    /// Adds one report.
    public mutating func add(_ record: ShadowReportRecord) {
        reports += 1
        tally.count(record.outcome)
        switch record.outcome {
        case .disagreed(let access, let fields):
            // Counted once per report, however often a report lists the same entitlement or field.
            for id in Set(access.map(\.entitlementId)) { accessCounts[id, default: 0] += 1 }
            for key in Set(fields.map { FieldKey(entitlementId: $0.entitlementId, field: $0.field) }) {
                fieldCounts[key, default: 0] += 1
            }
        case .shadowFailed: shadowFailed += 1
        case .shadowTimedOut: shadowTimedOut += 1
        case .writeFailed: writeFailed += 1
        case .agreed, .skipped: break
        }
    }

    /// Entitlements with an access difference, most frequent first (ties by id).
    public var accessDisagreements: [Disagreement] {
        accessCounts.map { Disagreement(entitlementId: $0.key, field: nil, reports: $0.value) }.sorted(by: Self.order)
    }

    /// Entitlement fields that differed, most frequent first (ties by id, then field).
    public var fieldDisagreements: [Disagreement] {
        fieldCounts.map { Disagreement(entitlementId: $0.key.entitlementId, field: $0.key.field, reports: $0.value) }
            .sorted(by: Self.order)
    }

    /// Both summaries' reports together.
    public static func + (lhs: ShadowReportSummary, rhs: ShadowReportSummary) -> ShadowReportSummary {
        var sum = lhs
        sum.reports += rhs.reports
        sum.tally += rhs.tally
        sum.shadowFailed += rhs.shadowFailed
        sum.shadowTimedOut += rhs.shadowTimedOut
        sum.writeFailed += rhs.writeFailed
        sum.accessCounts.merge(rhs.accessCounts, uniquingKeysWith: +)
        sum.fieldCounts.merge(rhs.fieldCounts, uniquingKeysWith: +)
        return sum
    }

    private static func order(_ a: Disagreement, _ b: Disagreement) -> Bool {
        if a.reports != b.reports { return a.reports > b.reports }
        if a.entitlementId != b.entitlementId {
            return a.entitlementId.utf8.lexicographicallyPrecedes(b.entitlementId.utf8)
        }
        return (a.field ?? "").utf8.lexicographicallyPrecedes((b.field ?? "").utf8)
    }
}
