import EntitlementKit
import Foundation

/// Tells the two ways a JSON input is laid out apart — one document (often pretty-printed over many
/// lines) or JSON Lines (one document per line) — so a tool handed one where it reads the other can say
/// so once, instead of reporting every line of a document as a broken record, or the second record of an
/// export as junk after the first document.
///
/// Both checks look at structure only (brackets, strings, line breaks) and never decide a document's
/// meaning; they exist to pick a better error message.
public enum JSONTextLayout {
    /// Whether `prefix`, the start of an input, opens a JSON object or array on its first non-blank line
    /// and does not close it there: a document spread over several lines, which is not JSON Lines.
    ///
    /// `false` when the first non-blank line is complete, is not an object or array, or is not finished
    /// within `prefix` (a long first record may simply not fit).
    public static func startsWithMultiLineDocument(_ prefix: Data) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        var started = false
        for byte in prefix {
            if !started {
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                    || byte == UInt8(ascii: "\n")
                {
                    continue
                }
                guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else { return false }
                started = true
                depth = 1
                continue
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                } else if byte == UInt8(ascii: "\n") {
                    return false  // A line break inside a string: not JSON at all, let the reader say so.
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return false }  // Closed on its first line.
            case UInt8(ascii: "\n"): return true  // Still open at the end of its first line.
            default: break
            }
        }
        return false
    }

    /// Whether `data` holds several documents, one per line: its first non-blank line is a complete JSON
    /// document and another non-blank line follows.
    public static func isJSONLines(_ data: Data) -> Bool {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).lazy.filter {
            !$0.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        }.makeIterator()
        guard let first = lines.next(), lines.next() != nil else { return false }
        return (try? JSONNode(parsing: Data(first))) != nil
    }
}
