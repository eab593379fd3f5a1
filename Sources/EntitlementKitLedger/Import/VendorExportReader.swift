import EntitlementKit
import Foundation

/// Reads one vendor's export of its customers (a CSV file with a header row) into import plan rows.
///
/// A reader names the columns it uses and says, for one row, which customer it belongs to and which
/// purchase it names — or why the row is skipped, or why it is malformed. Reading the CSV, grouping rows into
/// customers and purchases, counting and locating errors are ``ImportPlanning``'s, so another vendor's export
/// is one small reader more: RevenueCat's scheduled data export is ``RevenueCatExportReader``.
public protocol VendorExportReader: Sendable {
    /// The columns the reader uses; an export without one of them is refused before any row is read.
    var columns: [String] { get }

    /// What `row` says: a purchase of a customer, or a row to skip and why.
    ///
    /// - Throws: ``VendorExportRowError`` when the row is malformed (a required value missing or not in its
    ///   form); it is reported with its line and skipped.
    func read(_ row: VendorExportRow) throws(VendorExportRowError) -> VendorExportRowVerdict
}

/// One row of a vendor's export, its used columns by name.
public struct VendorExportRow: Sendable {
    private let fields: [String]
    private let indexes: [String: Int]

    init(fields: [String], indexes: [String: Int]) {
        self.fields = fields
        self.indexes = indexes
    }

    /// The value of `column` (one of the reader's ``VendorExportReader/columns``); empty when the column is
    /// not one of them.
    public subscript(column: String) -> String {
        indexes[column].map { fields[$0] } ?? ""
    }
}

/// What one row of an export says.
public enum VendorExportRowVerdict: Sendable, Hashable {
    /// A purchase of the customer named `customer` (the vendor's own id for it, the plan's first id), who
    /// also holds `aliases`.
    case purchase(customer: String, aliases: [String], ImportPlanPurchase)
    /// A row the plan does not take, and why (`sandbox`, `store amazon`, …); counted by reason.
    case skipped(reason: String)
}

/// A malformed row: the column and what is wrong with its value.
public struct VendorExportRowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The column whose value is wrong.
    public var column: String
    /// The value, as found (cut to ``DocumentError/maximumValueLength`` characters in the description).
    public var value: String
    /// What is wrong with it.
    public var reason: String

    /// A malformed row whose `column` holds `value`, which `reason`.
    public init(column: String, value: String, reason: String) {
        self.column = column
        self.value = value
        self.reason = reason
    }

    /// `store_transaction_id: "x" is not a Play order id`.
    public var description: String {
        "\(column): \(DocumentError.quoted(value)) \(reason)"
    }
}
