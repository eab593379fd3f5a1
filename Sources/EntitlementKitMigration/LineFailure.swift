import EntitlementKit

/// A JSON Lines record that could not be used, with its line number.
public struct LineFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number in the input.
    public var line: Int
    /// What is wrong with the record; its own ``DocumentError/line`` is cleared (a record is one line).
    public var error: DocumentError

    /// Creates a failure for `line`.
    public init(line: Int, error: DocumentError) {
        self.line = line
        var error = error
        error.line = nil
        self.error = error
    }

    /// The failure for a line longer than the reader keeps in memory.
    public static func tooLong(line: Int, byteCount: Int, limit: Int) -> LineFailure {
        LineFailure(
            line: line,
            error: DocumentError(
                kind: .syntax, path: .root,
                reason: "is \(byteCount) bytes long, over the limit of \(limit) bytes for one record; skipped unread"))
    }

    /// `line 7: subscriber.entitlements.pro.expires_date: "next tuesday" is not an ISO 8601 date`.
    public var description: String {
        "line \(line): \(error)"
    }
}
