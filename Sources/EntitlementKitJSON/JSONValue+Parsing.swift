import Foundation

extension JSONValue {
    /// Parses one JSON document (RFC 8259) strictly.
    ///
    /// Refused, with a ``DocumentError`` of kind `syntax` naming the line and the path reached: invalid
    /// UTF-8, trailing content, truncation, duplicate keys in one object (ambiguous input), nesting deeper
    /// than ``maximumNestingDepth``, and lone surrogate escapes.
    public static func parse(_ data: Data) throws(DocumentError) -> JSONValue {
        let document = try JSONDocument(parsing: data)
        return document.value(at: 0)
    }

    /// Parses one JSON document held in a string.
    public static func parse(_ text: String) throws(DocumentError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// The deepest nesting of arrays and objects the parser accepts.
    public static let maximumNestingDepth = 256
}
