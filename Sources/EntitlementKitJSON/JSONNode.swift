import Foundation

/// A JSON value together with its path in the document, with typed accessors that fail with a located
/// ``DocumentError``.
///
/// Adapters read vendor documents through `JSONNode` so that every refusal names the path and the value:
/// `subscriber.entitlements.pro.expires_date: "next tuesday" is not an ISO 8601 date`. A node is a view
/// into its document's tape (one validating pass built it): reading a member, a string or a date reads the
/// document's bytes in place, and the path and the ``value`` tree are made only when asked for.
public struct JSONNode: Sendable, Hashable {
    @usableFromInline let document: JSONDocument
    @usableFromInline let index: Int

    @inlinable init(_ document: JSONDocument, _ index: Int) {
        self.document = document
        self.index = index
    }

    /// Wraps a value found at `path` (the root by default).
    public init(_ value: JSONValue, path: JSONPath = .root) {
        self.init(JSONDocument(value, path: path), 0)
    }

    /// Parses `data` and returns its root.
    public init(parsing data: Data) throws(DocumentError) {
        self.init(try JSONDocument(parsing: data), 0)
    }

    /// The value at ``path``, as a tree.
    public var value: JSONValue { document.value(at: index) }

    /// Where ``value`` sits in the document.
    @inlinable public var path: JSONPath { document.path(to: index) }

    /// Equal values at equal paths.
    public static func == (left: JSONNode, right: JSONNode) -> Bool {
        left.value == right.value && left.path == right.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(path)
    }

    /// Whether the value is `null`.
    @inlinable public var isNull: Bool { document.kind(at: index) == .null }

    /// The bytes the node's document holds (its text and its tape), for the tests of its size.
    package var documentByteCount: Int { document.storageByteCount }

    /// The JSON types, as a reader tells them apart without making the value.
    package enum Kind: Sendable, Hashable {
        case null, bool, number, string, array, object
    }

    /// The value's JSON type.
    package var kind: Kind {
        switch document.kind(at: index) {
        case .null: .null
        case .false, .true: .bool
        case .integer, .double: .number
        case .asciiString, .utf8String, .escapedString: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The string, or `nil` when the value is not one.
    package var stringValue: String? { kind == .string ? document.string(at: index) : nil }

    /// Whether the value is a number written without a fraction or an exponent that fits 64 bits (what
    /// ``value`` gives as `.integer`).
    package var isInteger: Bool { document.kind(at: index) == .integer }

    /// The boolean, or `nil` when the value is not one.
    package var boolValue: Bool? {
        switch document.kind(at: index) {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// Whether the value is the string `text`.
    package func isString(_ text: String) -> Bool { stringValue == text }

    // MARK: Members

    /// The member `key` when this is an object that has it, `null` included.
    @inlinable public func member(_ key: String) -> JSONNode? {
        guard document.kind(at: index) == .object, let member = document.member(key, ofObjectAt: index) else {
            return nil
        }
        return JSONNode(document, member)
    }

    /// Whether this is an object with a member `key` (`null` included).
    @inlinable package func has(_ key: String) -> Bool { member(key) != nil }

    /// The member `key` when present and not `null`. Fails when this is not an object.
    @inlinable public func optional(_ key: String) throws(DocumentError) -> JSONNode? {
        try requireObject()
        guard let node = member(key), !node.isNull else { return nil }
        return node
    }

    /// The member `key` as an identifier (``identifier()``), `nil` when absent, `null` or empty.
    package func optionalIdentifier(_ key: String) throws(DocumentError) -> String? {
        try optional(key)?.identifier()
    }

    /// The member `key` as an RFC 3339 date-time string (``date()``), `nil` when absent or `null`.
    package func optionalDate(_ key: String) throws(DocumentError) -> Date? {
        try optional(key)?.date()
    }

    /// The member `key`; absent or `null` is a `missingField` error.
    @inlinable public func required(_ key: String) throws(DocumentError) -> JSONNode {
        guard let node = try optional(key) else {
            throw DocumentError(kind: .missingField, path: path.appending(key), reason: "is required but missing")
        }
        return node
    }

    // MARK: Containers

    /// The members of an object, keyed by name.
    public func members() throws(DocumentError) -> [String: JSONNode] {
        var nodes: [String: JSONNode] = [:]
        nodes.reserveCapacity(document.childCount(at: index))
        try forEachMember { key, node in nodes[key] = node }
        return nodes
    }

    /// Calls `body` with each member of an object in document order. Fails when this is not an object.
    package func forEachMember(_ body: (String, JSONNode) throws(DocumentError) -> Void) throws(DocumentError) {
        guard document.kind(at: index) == .object else { throw typeMismatch("an object") }
        var key = index + 1
        let end = document.next(after: index)
        while key < end {
            try body(document.string(at: key), JSONNode(document, key + 1))
            key = document.next(after: key + 1)
        }
    }

    /// The members of an object in ascending key order (by UTF-8 bytes), for readers whose first reported
    /// problem must not depend on the order the document was written in. Fails when this is not an object.
    package func membersInKeyOrder() throws(DocumentError) -> [(key: String, node: JSONNode)] {
        guard document.kind(at: index) == .object else { throw typeMismatch("an object") }
        var keys: [Int] = []
        keys.reserveCapacity(document.childCount(at: index))
        var key = index + 1
        let end = document.next(after: index)
        var allPlain = true
        while key < end {
            keys.append(key)
            allPlain = allPlain && JSONDocument.isASCIIString(document.tape[key])
            key = document.next(after: key + 1)
        }
        let document = document
        // Plain keys compare by their bytes in place: no strings made to sort them.
        if allPlain { keys.sort { JSONDocument.precedes(document.text(at: $0), document.text(at: $1)) } }
        let members = keys.map { (key: document.string(at: $0), node: JSONNode(document, $0 + 1)) }
        return allPlain ? members : members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The elements of an array, in order.
    public func elements() throws(DocumentError) -> [JSONNode] {
        guard document.kind(at: index) == .array else { throw typeMismatch("an array") }
        var nodes: [JSONNode] = []
        nodes.reserveCapacity(document.childCount(at: index))
        var child = index + 1
        let end = document.next(after: index)
        while child < end {
            nodes.append(JSONNode(document, child))
            child = document.next(after: child)
        }
        return nodes
    }

    /// The first element of an array, or `nil` (an empty array, or not an array).
    package var firstElement: JSONNode? {
        guard document.kind(at: index) == .array, document.next(after: index) > index + 1 else { return nil }
        return JSONNode(document, index + 1)
    }

    /// The number of elements or members of an array or object; 0 for anything else.
    package var count: Int {
        switch document.kind(at: index) {
        case .array, .object: document.childCount(at: index)
        default: 0
        }
    }

    // MARK: Scalars

    /// A string value.
    public func string() throws(DocumentError) -> String {
        guard kind == .string else { throw typeMismatch("a string") }
        return document.string(at: index)
    }

    /// A string value, `nil` for an empty string (where an identifier belongs, empty means absent).
    public func identifier() throws(DocumentError) -> String? {
        let text = try string()
        return text.isEmpty ? nil : text
    }

    /// A JSON boolean.
    public func bool() throws(DocumentError) -> Bool {
        guard let flag = boolValue else { throw typeMismatch("a boolean") }
        return flag
    }

    /// An integer; a number with a zero fraction (`3.0`) counts.
    public func integer() throws(DocumentError) -> Int64 {
        switch document.kind(at: index) {
        case .integer: return document.integer(at: index)
        case .double:
            let double = document.double(at: index)
            guard double.rounded() == double && abs(double) < 9.0e15 else { throw invalid("must be a whole number") }
            return Int64(double)
        default: throw typeMismatch("a number")
        }
    }

    /// A number, integer or not.
    public func number() throws(DocumentError) -> Double {
        guard kind == .number else { throw typeMismatch("a number") }
        return document.double(at: index)
    }

    /// An RFC 3339 date-time string with a time-zone designator.
    public func date() throws(DocumentError) -> Date {
        let milliseconds: Int64?
        switch document.kind(at: index) {
        case .asciiString, .utf8String: milliseconds = RFC3339.milliseconds(utf8: document.text(at: index))
        case .escapedString:
            milliseconds = RFC3339.date(from: document.string(at: index))?.millisecondsSince1970
        default: throw typeMismatch("an ISO 8601 date string")
        }
        guard let milliseconds else { throw invalid("is not an ISO 8601 date") }
        return Date(millisecondsSince1970: milliseconds)
    }

    /// A count of seconds since 1970-01-01T00:00:00Z (fractions kept to the millisecond). Values
    /// outside the years ``RFC3339/supportedYears`` are refused: a timestamp sent in the wrong unit must
    /// not turn into an expiry thousands of years away.
    public func dateFromEpochSeconds() throws(DocumentError) -> Date {
        // A count without a fraction is read as an integer, without a `Double` in between: the same instant.
        let date =
            isInteger
            ? EpochTime.date(secondsSince1970: document.integer(at: index))
            : EpochTime.date(secondsSince1970: try number())
        guard let date else { throw invalid("is not a plausible count of seconds since 1970") }
        return date
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

    /// Fails unless this node is an object.
    @inlinable package func requireObject() throws(DocumentError) {
        guard document.kind(at: index) == .object else { throw typeMismatch("an object") }
    }
}
