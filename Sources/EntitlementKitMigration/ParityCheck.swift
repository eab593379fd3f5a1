import EntitlementKit
import Foundation

/// A whole parity check: reads two JSON Lines exports of the same customers on two backends, joins them
/// on `appUserId` (and, asked to, on the `aliases` a ledger's export lists) and compares every matched
/// customer at one instant.
///
/// Records are decoded on the processor's workers. A record that cannot be used — it does not decode,
/// has no app user id, or repeats an id already seen in its file — is handed to the failure callback with
/// its side and line, and counted in ``Outcome``; it is never silently dropped. Memory grows with A's
/// customers (what a diff needs of them), not with the files' size.
public struct ParityCheck: Sendable {
    /// Which export a record came from.
    public enum Side: String, Sendable, Hashable {
        /// The first export (A).
        case a = "A"
        /// The second export (B).
        case b = "B"
    }

    /// The report and what could not be compared.
    public struct Outcome: Sendable, Hashable {
        /// The comparison of every record that could be used.
        public var report: ParityReport
        /// Records of A reported as failures.
        public var failuresInA: Int
        /// Records of B reported as failures.
        public var failuresInB: Int

        /// Whether every record of both exports was compared.
        public var isComplete: Bool { failuresInA == 0 && failuresInB == 0 }
    }

    /// Reads each record; formats are detected per record unless ``format`` or an envelope names one.
    public let decoder: SnapshotDecoder
    /// The format of every record of both exports that does not name its own in an envelope; `nil`
    /// detects it per record. An envelope naming another format is a failure for that record.
    public let format: ProviderID?
    /// The instant both sides are evaluated at.
    public let instant: Date
    /// What the per-customer diff compares.
    public let options: SnapshotDiff.Options
    /// Whether a record also joins the customer of the other export whose ``EntitlementSnapshot/aliases``
    /// hold its id (``ParityBaseline/init(joiningAliases:)``).
    public let joinsAliases: Bool

    /// Creates a check.
    ///
    /// - Parameter joiningAliases: also join on the ids a snapshot lists in ``EntitlementSnapshot/aliases``
    ///   (a ledger's export), so a vendor's line for any of a customer's ids is compared with it.
    public init(
        decoder: SnapshotDecoder, format: ProviderID? = nil, at instant: Date, options: SnapshotDiff.Options = .init(),
        joiningAliases: Bool = false
    ) {
        self.decoder = decoder
        self.format = format
        self.instant = instant
        self.options = options
        self.joinsAliases = joiningAliases
    }

    /// Reads all of `a`, then all of `b`, and reports.
    ///
    /// - Parameters:
    ///   - failed: called for each record that cannot be used, in input order per side. Errors it throws
    ///     stop the run.
    ///   - progress: called after each record with its side and the number of records read on that side.
    public func run(
        a: inout JSONLinesReader,
        b: inout JSONLinesReader,
        processor: OrderedLineProcessor,
        failed: (Side, LineFailure) throws -> Void,
        progress: (Side, Int) -> Void = { _, _ in }
    ) throws -> Outcome {
        var baseline = ParityBaseline(joiningAliases: joinsAliases)
        let failuresInA = try read(.a, &a, processor: processor, failed: failed, progress: progress) { snapshot, line in
            try baseline.add(snapshot, line: line)
        }
        var comparison = ParityComparison(baseline: baseline, options: options)
        baseline = ParityBaseline()
        let failuresInB = try read(.b, &b, processor: processor, failed: failed, progress: progress) { snapshot, line in
            try comparison.compare(snapshot, line: line)
        }
        return Outcome(report: comparison.report(), failuresInA: failuresInA, failuresInB: failuresInB)
    }

    /// Decodes every record of one side and hands each snapshot to `consume`; a record that cannot be
    /// decoded, or that `consume` refuses, goes to `failed`. Returns the number of such records.
    private func read(
        _ side: Side,
        _ reader: inout JSONLinesReader,
        processor: OrderedLineProcessor,
        failed: (Side, LineFailure) throws -> Void,
        progress: (Side, Int) -> Void,
        consume: (EntitlementSnapshot, Int) throws -> Void
    ) throws -> Int {
        let decoder = self.decoder
        let format = self.format
        let instant = self.instant
        let limit = reader.maximumLineLength
        var failures = 0
        var records = 0
        try processor.run(
            &reader, transform: { decoder.snapshot(of: $0, format: format, at: instant, maximumLineLength: limit) }
        ) { line, result in
            records += 1
            do {
                try consume(result.get(), line.number)
            } catch let failure as LineFailure {
                failures += 1
                try failed(side, failure)
            } catch let error as DocumentError {
                failures += 1
                try failed(side, LineFailure(line: line.number, error: error))
            }
            progress(side, records)
        }
        return failures
    }
}
