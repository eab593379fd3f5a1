/// Running totals of a ``MigratingProvider``'s reports: what an app reads to decide when to cut over.
public struct ShadowTally: Sendable, Hashable, CustomStringConvertible {
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

    /// Comparisons made: agreed plus those that differed.
    public var comparisons: Int { agreed + accessDifferences + fieldDifferences }

    /// `agreed 98, access differences 1, field differences 1, failures 0, skipped 3`.
    public var description: String {
        "agreed \(agreed), access differences \(accessDifferences), field differences \(fieldDifferences), "
            + "failures \(failures), skipped \(skipped)"
    }

    mutating func count(_ outcome: ShadowReport.Outcome) {
        switch outcome {
        case .agreed: agreed += 1
        case .disagreed(let diff):
            if diff.hasAccessDifferences { accessDifferences += 1 } else { fieldDifferences += 1 }
        case .shadowFailed, .shadowTimedOut, .writeFailed: failures += 1
        case .skipped: skipped += 1
        }
    }
}
