import Foundation

/// Reads vendors' exports into an import plan, row by row (streamed: the file is read in chunks and only
/// the reader's columns are kept).
///
/// ```swift
/// var builder = ImportPlanBuilder()
/// let reader = RevenueCatExportReader()
/// try ImportPlanning.read(ImportByteSource(handle: file), with: reader, into: &builder) { malformed in
///     print("line \(malformed.line): \(malformed.reason)")
/// }
/// for customer in builder.plan { print(customer.jsonLine) }
/// ```
public enum ImportPlanning {
    /// Reads one export: its header row, then every row through `reader` into `builder`.
    ///
    /// - Parameter malformed: called for each row that is not well-formed CSV, has another number of fields
    ///   than the header, or that `reader` finds malformed; the row is counted and skipped.
    /// - Throws: ``ImportPlanningError``: the header lacks one of the reader's columns or names one twice
    ///   (before any row is read), or the input cannot be read.
    public static func read(
        _ source: ImportByteSource, with reader: some VendorExportReader, into builder: inout ImportPlanBuilder,
        malformed: (ImportMalformedRow) -> Void
    ) throws(ImportPlanningError) {
        var records = CSVRecordReader(source)
        let (indexes, width) = try header(&records, columns: reader.columns)
        let kept = Set(indexes.values)
        while true {
            let next: Result<CSVRecordReader.Record, CSVRecordReader.Malformed>?
            do {
                next = try records.next(keeping: kept.contains)
            } catch {
                throw .unreadable(error)
            }
            guard let next else { return }
            switch next {
            case .failure(let failure):
                builder.addMalformedRow()
                malformed(ImportMalformedRow(line: failure.line, reason: failure.reason))
            case .success(let record) where record.fields.count != width:
                builder.addMalformedRow()
                malformed(
                    ImportMalformedRow(
                        line: record.line, reason: "has \(record.fields.count) fields where the header has \(width)"))
            case .success(let record):
                do {
                    builder.add(try reader.read(VendorExportRow(fields: record.fields, indexes: indexes)))
                } catch {
                    builder.addMalformedRow()
                    malformed(ImportMalformedRow(line: record.line, reason: error.description))
                }
            }
        }
    }

    /// The index of each of `columns` in the header row, and the header's number of fields.
    private static func header(_ records: inout CSVRecordReader, columns: [String]) throws(ImportPlanningError)
        -> (indexes: [String: Int], width: Int)
    {
        let first: Result<CSVRecordReader.Record, CSVRecordReader.Malformed>?
        do {
            first = try records.next(keeping: { _ in true })
        } catch {
            throw .unreadable(error)
        }
        switch first {
        case nil:
            throw .missingColumns(columns)
        case .failure(let failure)?:
            throw .malformedHeader(line: failure.line, reason: failure.reason)
        case .success(let record)?:
            var indexes: [String: Int] = [:]
            for (index, name) in record.fields.enumerated() where columns.contains(name) {
                guard indexes[name] == nil else { throw .repeatedColumn(name) }
                indexes[name] = index
            }
            let missing = columns.filter { indexes[$0] == nil }
            guard missing.isEmpty else { throw .missingColumns(missing) }
            return (indexes, record.fields.count)
        }
    }
}

/// A row of an export reported and skipped: its first line and what is wrong.
public struct ImportMalformedRow: Sendable, Hashable, CustomStringConvertible {
    /// The row's first line in the file, from 1 (a quoted field may hold line breaks).
    public var line: Int
    /// What is wrong: the CSV, or the column and its value.
    public var reason: String

    /// `line 7: store_transaction_id: "x" is not a Play order id …`.
    public var description: String { "line \(line): \(reason)" }
}

/// An export that cannot be read at all.
public enum ImportPlanningError: Error, Sendable, CustomStringConvertible {
    /// The header row lacks these used columns (or there is no header row).
    case missingColumns([String])
    /// The header row names a used column twice.
    case repeatedColumn(String)
    /// The header row itself is not well-formed CSV.
    case malformedHeader(line: Int, reason: String)
    /// The input could not be read.
    case unreadable(ImportReadError)

    /// Whether the user named a file that is not the export expected (a missing or repeated column: usage).
    public var isUsage: Bool {
        switch self {
        case .missingColumns, .repeatedColumn: true
        case .malformedHeader, .unreadable: false
        }
    }

    public var description: String {
        switch self {
        case .missingColumns(let columns):
            "missing column\(columns.count == 1 ? "" : "s") \(columns.joined(separator: ", ")) in the header row"
        case .repeatedColumn(let column): "column \(column) appears twice in the header row"
        case .malformedHeader(let line, let reason): "line \(line): the header row is malformed: \(reason)"
        case .unreadable(let error): error.description
        }
    }
}
