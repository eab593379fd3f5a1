import EntitlementKit
import Foundation

/// What the start of an input looks like when it is not JSON, so a command can say "not JSON: it looks
/// like CSV" instead of `$: unexpected 'r' where a value was expected`.
public enum DocumentShape {
    /// The description of an input with nothing but white space.
    public static let emptyDescription = "an empty file"

    /// Whether `text`, after white space and a byte-order mark, starts as a JSON document can: `{`, `[` or
    /// `"`, or a first line that is a whole JSON value (`42`, `null`: a CSV header `name,email` is not).
    /// Empty input does not.
    public static func startsLikeJSON<Bytes: Collection>(_ text: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard let first = firstSignificantByte(text) else { return false }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") { return true }
        let line = text.prefix(4096).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).first {
            $0.contains { !isWhiteSpace($0) && !isByteOrderMark($0) }
        }
        return line.map { (try? JSONNode(parsing: Data($0.drop(while: isByteOrderMark)))) != nil } ?? false
    }

    /// What `prefix`, the start of an input that does not start like JSON, looks like: `a JWS (a signed
    /// App Store transaction, three base64url parts separated by dots)`, `HTML`, `XML`, `a PDF file`, `a ZIP
    /// archive (an .xlsx or .numbers file?)`, `CSV (comma-separated values)`, `tab-separated values`, `an
    /// empty file`, `binary data` or `plain text`. `nil` when it starts like JSON.
    public static func description(ofNonJSON prefix: Data) -> String? {
        guard !startsLikeJSON(prefix) else { return nil }
        let bytes = [UInt8](prefix.prefix(4096))
        guard let start = bytes.firstIndex(where: { !isWhiteSpace($0) && !isByteOrderMark($0) }) else {
            return emptyDescription
        }
        let text = String(decoding: bytes[start...], as: UTF8.self)
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r" }
        let lowered = text.lowercased()
        if compactJWS(in: prefix) != nil {
            return "a JWS (a signed App Store transaction: three base64url parts separated by dots)"
        }
        if bytes[start...].starts(with: Array("%PDF".utf8)) { return "a PDF file" }
        if bytes[start...].starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return "a ZIP archive (an .xlsx or .numbers file?)"
        }
        if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") || lowered.contains("<body") {
            return "HTML (an error page?)"
        }
        if lowered.hasPrefix("<?xml") || lowered.hasPrefix("<") { return "XML" }
        if bytes.contains(0) { return "binary data" }
        if firstLine.contains(",") { return "CSV (comma-separated values)" }
        if firstLine.contains("\t") { return "tab-separated values" }
        return "plain text"
    }

    /// The compact JWS `data` holds alone (white space around it allowed): three base64url parts separated
    /// by dots, the first a JSON header (`eyJ`, the encoding of `{"`). `nil` for anything else.
    public static func compactJWS(in data: Data) -> String? {
        guard data.count <= 1 << 20 else { return nil }
        let bytes = [UInt8](data)
        guard let start = bytes.firstIndex(where: { !isWhiteSpace($0) && !isByteOrderMark($0) }),
            let end = bytes.lastIndex(where: { !isWhiteSpace($0) })
        else { return nil }
        let token = bytes[start...end]
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isBase64URL) }),
            token.starts(with: Array("eyJ".utf8))
        else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// Whether some non-blank line of `prefix` starts like JSON. Lines cut off at the end of `prefix` count
    /// by their start.
    public static func anyLineStartsLikeJSON(_ prefix: Data) -> Bool {
        prefix.split(separator: UInt8(ascii: "\n")).contains { line in
            firstSignificantByte(line) != nil && startsLikeJSON(line)
        }
    }

    private static func firstSignificantByte<Bytes: Collection>(_ text: Bytes) -> UInt8?
    where Bytes.Element == UInt8 {
        var index = text.startIndex
        // A UTF-8 byte-order mark, which some exporters write.
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { index = text.index(index, offsetBy: 3) }
        while index < text.endIndex, isWhiteSpace(text[index]) { index = text.index(after: index) }
        return index < text.endIndex ? text[index] : nil
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isByteOrderMark(_ byte: UInt8) -> Bool {
        byte == 0xEF || byte == 0xBB || byte == 0xBF
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
