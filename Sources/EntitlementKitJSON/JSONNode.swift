import Foundation

/// A JSON value together with its path in the document, with typed accessors that fail with a located
/// ``DocumentError``.
///
/// Adapters read vendor documents through `JSONNode` so that every refusal names the path and the value:
/// `subscriber.entitlements.pro.expires_date: "next tuesday" is not an ISO 8601 date`.
public struct JSONNode: Sendable, Hashable {
    /// The value at ``path``.
    public let value: JSONValue
    /// Where ``value`` sits in the document.
    public let path: JSONPath

    /// Wraps a value found at `path` (the root by default).
    public init(_ value: JSONValue, path: JSONPath = .root) {
        self.value = value
        self.path = path
    }

    /// Parses `data` and returns its root.
    public init(parsing data: Data) throws(DocumentError) {
        self.init(try JSONValue.parse(data))
    }

    /// Whether the value is `null`.
    public var isNull: Bool { value.isNull }

    // MARK: Members

    /// The member `key` when this is an object that has it, `null` included.
    public func member(_ key: String) -> JSONNode? {
        value[key].map { JSONNode($0, path: path.appending(key)) }
    }

    /// The member `key` when present and not `null`. Fails when this is not an object.
    public func optional(_ key: String) throws(DocumentError) -> JSONNode? {
        try requireObjectShape()
        guard let node = member(key), !node.isNull else { return nil }
        return node
    }

    /// The member `key`; absent or `null` is a `missingField` error.
    public func required(_ key: String) throws(DocumentError) -> JSONNode {
        guard let node = try optional(key) else {
            throw DocumentError(kind: .missingField, path: path.appending(key), reason: "is required but missing")
        }
        return node
    }

    // MARK: Containers

    /// The members of an object, keyed by name.
    public func members() throws(DocumentError) -> [String: JSONNode] {
        guard case .object(let members) = value else { throw typeMismatch("an object") }
        var nodes: [String: JSONNode] = [:]
        nodes.reserveCapacity(members.count)
        for (key, member) in members { nodes[key] = JSONNode(member, path: path.appending(key)) }
        return nodes
    }

    /// The elements of an array, in order.
    public func elements() throws(DocumentError) -> [JSONNode] {
        guard case .array(let elements) = value else { throw typeMismatch("an array") }
        return elements.enumerated().map { JSONNode($1, path: path.appending(index: $0)) }
    }

    // MARK: Scalars

    /// A string value.
    public func string() throws(DocumentError) -> String {
        guard case .string(let string) = value else { throw typeMismatch("a string") }
        return string
    }

    /// A string value, `nil` for an empty string (where an identifier belongs, empty means absent).
    public func identifier() throws(DocumentError) -> String? {
        let text = try string()
        return text.isEmpty ? nil : text
    }

    /// A JSON boolean.
    public func bool() throws(DocumentError) -> Bool {
        guard case .bool(let flag) = value else { throw typeMismatch("a boolean") }
        return flag
    }

    /// An integer; a number with a zero fraction (`3.0`) counts.
    public func integer() throws(DocumentError) -> Int64 {
        switch value {
        case .integer(let integer): return integer
        case .double(let double) where double.rounded() == double && abs(double) < 9.0e15: return Int64(double)
        case .double: throw invalid("must be a whole number")
        default: throw typeMismatch("a number")
        }
    }

    /// A number, integer or not.
    public func number() throws(DocumentError) -> Double {
        switch value {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        default: throw typeMismatch("a number")
        }
    }

    /// An RFC 3339 date-time string with a time-zone designator.
    public func date() throws(DocumentError) -> Date {
        guard case .string(let text) = value else { throw typeMismatch("an ISO 8601 date string") }
        guard let date = RFC3339.date(from: text) else { throw invalid("is not an ISO 8601 date") }
        return date
    }

    /// A count of seconds since 1970-01-01T00:00:00Z (fractions kept to the millisecond). Values
    /// outside the years ``RFC3339/supportedYears`` are refused: a timestamp sent in the wrong unit must
    /// not turn into an expiry thousands of years away.
    public func dateFromEpochSeconds() throws(DocumentError) -> Date {
        let seconds = try number()
        let milliseconds = (seconds * 1000).rounded(.down)
        guard milliseconds >= Double(RFC3339.supportedMilliseconds.lowerBound),
            milliseconds <= Double(RFC3339.supportedMilliseconds.upperBound)
        else {
            throw invalid("is not a plausible count of seconds since 1970")
        }
        return Date(millisecondsSince1970: Int64(milliseconds))
    }

    /// An absolute URL with a scheme and a host, exactly as written. Checked by hand because
    /// Foundation's `URL(string:)` percent-encodes invalid characters (`not a url`) instead of refusing them.
    public func absoluteURL() throws(DocumentError) -> URL {
        let text = try string()
        let forbidden = text.unicodeScalars.contains { scalar in
            scalar.value <= 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "<" || scalar == ">"
                || scalar == "\\"
                || scalar == "^" || scalar == "`" || scalar == "{" || scalar == "|" || scalar == "}"
        }
        guard !text.isEmpty, !forbidden, let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty,
            let host = url.host, !host.isEmpty, url.absoluteString == text
        else { throw invalid("is not an absolute URL") }
        return url
    }

    // MARK: Errors

    /// A `wrongType` error at this node: `<value> must be <expected>`.
    public func typeMismatch(_ expected: String) -> DocumentError {
        DocumentError(
            kind: .wrongType, path: path, offending: value, reason: "must be \(expected), not \(value.typeDescription)")
    }

    /// An `invalidValue` error at this node quoting its value.
    public func invalid(_ reason: String) -> DocumentError {
        DocumentError(kind: .invalidValue, path: path, offending: value, reason: reason)
    }

    private func requireObjectShape() throws(DocumentError) {
        guard case .object = value else { throw typeMismatch("an object") }
    }
}
