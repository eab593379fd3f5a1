import EntitlementKit
import Foundation

/// A whole parity check: reads two JSON Lines exports of the same customers on two backends, joins them
/// on `appUserId` and compares every matched customer at one instant.
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
    public let format: String?
    /// The instant both sides are evaluated at.
    public let instant: Date
    /// What the per-customer diff compares.
    public let options: SnapshotDiff.Options

    /// Creates a check.
    public init(decoder: SnapshotDecoder, format: String? = nil, at instant: Date, options: SnapshotDiff.Options = .init()) {
        self.decoder = decoder
        self.format = format
        self.instant = instant
        self.options = options
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
        let decoder = self.decoder
        let format = self.format
        let instant = self.instant
        let limitA = a.maximumLineLength
        var baseline = ParityBaseline()
        var failuresInA = 0
        var recordsInA = 0
        try processor.run(&a, transform: { decoder.snapshot(of: $0, format: format, at: instant, maximumLineLength: limitA) }) { line, result in
            recordsInA += 1
            do {
                try baseline.add(result.get(), line: line.number)
            } catch let failure as LineFailure {
                failuresInA += 1
                try failed(.a, failure)
            } catch let error as DocumentError {
                failuresInA += 1
                try failed(.a, LineFailure(line: line.number, error: error))
            }
            progress(.a, recordsInA)
        }
        var comparison = ParityComparison(baseline: baseline, options: options)
        baseline = ParityBaseline()
        let limitB = b.maximumLineLength
        var failuresInB = 0
        var recordsInB = 0
        try processor.run(&b, transform: { decoder.snapshot(of: $0, format: format, at: instant, maximumLineLength: limitB) }) { line, result in
            recordsInB += 1
            do {
                try comparison.compare(result.get(), line: line.number)
            } catch let failure as LineFailure {
                failuresInB += 1
                try failed(.b, failure)
            } catch let error as DocumentError {
                failuresInB += 1
                try failed(.b, LineFailure(line: line.number, error: error))
            }
            progress(.b, recordsInB)
        }
        return Outcome(report: comparison.report(), failuresInA: failuresInA, failuresInB: failuresInB)
    }
}
