/// Running totals of a ``MigratingProvider``'s reports: what an app reads to decide when to cut over.
///
/// Tallies add up (`+`): one device's launches (``ShadowTallyStore`` keeps it across them), or many
/// devices' reports read back by `entitlements shadow-report`.
public struct ShadowTally: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Comparisons where both backends answered and agreed on everything compared.
    public var agreed = 0
    /// Comparisons where access differed (some entitlement active on one backend only).
    public var accessDifferences = 0
    /// Comparisons where access agreed but some compared field differed.
    public var fieldDifferences = 0
    /// Shadow reads that failed or timed out, and writes that failed on the shadow.
    public var failures = 0
    /// Reads the shadow was not asked for (anonymous customers).
    public var skipped = 0

    /// An empty tally.
    public init() {}

    /// Comparisons made: `agreed` and `disagreed` reports (agreed plus those that differed).
    public var comparisons: Int { agreed + accessDifferences + fieldDifferences }

    /// The disagreed comparisons with an access difference over all comparisons; 0 before the first
    /// comparison (no access difference has been seen; gate on ``comparisons`` as well).
    public var accessDifferenceRate: Double {
        comparisons == 0 ? 0 : Double(accessDifferences) / Double(comparisons)
    }

    /// Whether the evidence is enough to cut over: at least `minimumComparisons` comparisons, and an
    /// ``accessDifferenceRate`` of at most `maximumAccessDifferenceRate`.
    public func holds(minimumComparisons: Int, maximumAccessDifferenceRate: Double) -> Bool {
        comparisons >= minimumComparisons && accessDifferenceRate <= maximumAccessDifferenceRate
    }

    /// Both tallies' counts added.
    public static func + (lhs: ShadowTally, rhs: ShadowTally) -> ShadowTally {
        var sum = lhs
        sum += rhs
        return sum
    }

    /// Adds `rhs`'s counts.
    public static func += (lhs: inout ShadowTally, rhs: ShadowTally) {
        lhs.agreed += rhs.agreed
        lhs.accessDifferences += rhs.accessDifferences
        lhs.fieldDifferences += rhs.fieldDifferences
        lhs.failures += rhs.failures
        lhs.skipped += rhs.skipped
    }

    /// `agreed 98, access differences 1, field differences 1, failures 0, skipped 3`.
    public var description: String {
        "agreed \(agreed), access differences \(accessDifferences), field differences \(fieldDifferences), "
            + "failures \(failures), skipped \(skipped)"
    }

    mutating func count(_ outcome: ShadowReport.Outcome) {
        count(ShadowReportRecord.Outcome(outcome))
    }

    /// Counts one report read back from its JSON form.
    public mutating func count(_ outcome: ShadowReportRecord.Outcome) {
        switch outcome {
        case .agreed: agreed += 1
        case .disagreed(let access, _):
            if access.isEmpty { fieldDifferences += 1 } else { accessDifferences += 1 }
        case .shadowFailed, .shadowTimedOut, .writeFailed: failures += 1
        case .skipped: skipped += 1
        }
    }
}
