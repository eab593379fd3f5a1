/// Why a document was refused, and exactly where.
///
/// Every failure to read a vendor response or a unified snapshot is a `DocumentError`: it names the
/// JSON path, quotes the offending value (shortened), and says what was expected. The CLI prints its
/// ``description`` after the file name; apps can switch on ``kind``. A document that fails never
/// yields a snapshot, so it never grants access.
public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The family of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The bytes are not JSON (truncated, stray characters, invalid UTF-8, duplicate keys).
        case syntax
        /// A required member is absent.
        case missingField
        /// A member has the wrong JSON type.
        case wrongType
        /// A member has the right type but an unusable value (a date that is not a date).
        case invalidValue
        /// The document does not look like any format the reader knows.
        case unrecognizedFormat
        /// The vendor's envelope says the request failed (`success: false`, an `error` body).
        case vendorError
        /// Parts of the document contradict each other.
        case inconsistent
    }

    /// The family of failure.
    public var kind: Kind
    /// Where in the document the problem is.
    public var path: JSONPath
    /// The offending value as JSON text, shortened to ``maximumValueLength`` characters; `nil` when
    /// there is no value (a missing member).
    public var value: String?
    /// What is wrong, phrased to follow the value: `is not an ISO 8601 date`, `must be a string`.
    /// Shortened to ``maximumReasonLength`` characters and kept on one line (line breaks become spaces,
    /// other control characters `?`), as it may quote the document (a vendor's message).
    public var reason: String
    /// The 1-based line in the document's text, for syntax errors. Printed after the reason, so a
    /// JSON Lines reader's own `line N:` (the record's line in the file) is never confused with it.
    public var line: Int?

    /// The longest value quoted in a message.
    public static let maximumValueLength = 60

    /// The longest reason kept. With ``maximumValueLength``, ``JSONPath/maximumKeyLength`` and
    /// ``JSONValue/maximumNestingDepth`` it bounds a description, whatever the size of the document.
    public static let maximumReasonLength = 240

    /// Creates an error.
    public init(kind: Kind, path: JSONPath, value: String? = nil, reason: String, line: Int? = nil) {
        self.kind = kind
        self.path = path
        self.value = value.map { Self.shortened($0) }
        self.reason = Self.shortened(Self.oneLine(reason), to: Self.maximumReasonLength)
        self.line = line
    }

    /// `text` on one printable line: a reason may quote the document (a vendor's error message), and a
    /// line break or control character there would split or rewrite the line the CLI prints.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return String(
            String.UnicodeScalarView(line.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }

    /// Creates an error that quotes `value`.
    public init(kind: Kind, path: JSONPath, offending value: JSONValue, reason: String) {
        self.init(kind: kind, path: path, value: JSONWriter.compactText(of: value), reason: reason)
    }

    /// One line, path first: `subscriber.entitlements.pro.expires_date: "next tuesday" is not an ISO 8601 date`.
    /// A syntax error in a multi-line document ends with the line it was found on: `… (line 7)`.
    public var description: String {
        var text = path.description + ": "
        if let value { text += value + " " }
        text += reason
        if let line, line > 1 { text += " (line \(line))" }
        return text
    }

    /// `text` as a JSON string, cut as ``shortened(_:to:)`` cuts it (`"next tuesday"`, `"aaa…`): how an error
    /// quotes a string that is not a document's value (an argument the user typed, an id an app passed).
    package static func quoted(_ text: String) -> String {
        shortened(JSONValue.string(text).compactText)
    }

    /// `text` cut to `length` characters, the last one `…` (and, for text of few characters carrying many
    /// combining marks, to `4 × length` Unicode scalars), so an error stays one short line.
    package static func shortened(_ text: String, to length: Int = maximumValueLength) -> String {
        guard text.utf8.count > length else { return text }
        if text.count > length { return String(text.prefix(length - 1)) + "…" }
        // Few characters, but one may carry thousands of combining marks: cut those by scalars.
        guard text.unicodeScalars.count > 4 * length else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(4 * length - 1))) + "…"
    }
}
