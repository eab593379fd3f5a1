import EntitlementKit
import Foundation

/// Converts a JSON Lines export of vendor responses into unified snapshots, one compact JSON line per
/// customer, in input order.
///
/// The input is read in bounded windows and converted on ``OrderedLineProcessor/jobs`` workers, so a file
/// of any size runs in constant memory and the output lines stay in input order. A record that fails is
/// handed to the failure callback with its line number and skipped; it never stops the run.
///
/// ```swift
/// let migration = BulkMigration(decoder: SnapshotDecoder(adapters: adapters), at: instant)
/// var reader = JSONLinesReader(fileHandle: input)
/// let summary = try migration.run(&reader, processor: OrderedLineProcessor(jobs: 4),
///                                 write: { output.write($0) },
///                                 failed: { print("error: export.jsonl: \($0)") })
/// ```
public struct BulkMigration: Sendable {
    /// Reads each record.
    public let decoder: SnapshotDecoder
    /// The format of every record; `nil` detects it per record.
    public let format: ProviderID?
    /// The instant every snapshot is evaluated at.
    public let instant: Date

    /// Creates a migration evaluating every snapshot at `instant`.
    public init(decoder: SnapshotDecoder, format: ProviderID? = nil, at instant: Date) {
        self.decoder = decoder
        self.format = format
        self.instant = instant
    }

    /// The unified snapshot of one record as a compact JSON line (with its `\n`), or why not.
    public func convert(_ line: JSONLine, maximumLineLength: Int = JSONLinesReader.defaultMaximumLineLength) -> Result<
        Data, LineFailure
    > {
        decoder.snapshot(of: line, format: format, at: instant, maximumLineLength: maximumLineLength).map {
            $0.canonicalJSONLine()
        }
    }

    /// Converts every record of `reader`, calling `write` with each snapshot line in input order and
    /// `failed` with each failure (also in input order). Errors thrown by the callbacks or the reader stop
    /// the run and are rethrown.
    ///
    /// - Parameter progress: called after each delivered record with the count of records so far.
    public func run(
        _ reader: inout JSONLinesReader,
        processor: OrderedLineProcessor,
        write: (Data) throws -> Void,
        failed: (LineFailure) throws -> Void,
        progress: (MigrationSummary) -> Void = { _ in }
    ) throws -> MigrationSummary {
        var summary = MigrationSummary()
        let limit = reader.maximumLineLength
        try processor.run(&reader, transform: { line in self.convert(line, maximumLineLength: limit) }) { _, result in
            summary.records += 1
            switch result {
            case .success(let data):
                try write(data)
                summary.converted += 1
            case .failure(let failure):
                summary.failed += 1
                try failed(failure)
            }
            progress(summary)
        }
        return summary
    }
}

/// What a ``BulkMigration`` run did.
public struct MigrationSummary: Sendable, Hashable, CustomStringConvertible {
    /// Non-blank lines read.
    public var records = 0
    /// Records written as snapshots.
    public var converted = 0
    /// Records reported as failures and skipped.
    public var failed = 0

    /// Creates an empty summary.
    public init() {}

    /// `10 records: 8 converted, 2 failed`.
    public var description: String {
        "\(records) record\(records == 1 ? "" : "s"): \(converted) converted, \(failed) failed"
    }
}
