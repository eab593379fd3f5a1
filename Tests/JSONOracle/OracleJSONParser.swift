import EntitlementKitJSON
import Foundation

/// The JSON reader EntitlementKit had before the tape (``JSONNode`` over one validating pass): a
/// recursive-descent parser that builds the `JSONValue` tree directly. It survives only as the oracle the
/// differential tests and fuzz targets hold the tape to: the same documents accepted, the same values, the
/// same located errors.
public enum OracleJSONParser {
    /// Parses one JSON document strictly, as `JSONValue.parse` did before the tape.
    public static func parse(_ data: Data) throws(DocumentError) -> JSONValue {
        let result: Result<JSONValue, DocumentError> = data.withUnsafeBytes { raw in
            var parser = TreeParser(bytes: raw.bindMemory(to: UInt8.self))
            do throws(DocumentError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// A recursive-descent parser over UTF-8 bytes that keeps track of the path it is in, so errors in
/// truncated or malformed documents still say where they happened.
struct TreeParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var path: [JSONPath.Component] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(DocumentError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated at the very start, as many exporters write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw failure("the document is empty") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw failure("unexpected \(describeCurrent()) after the end of the document") }
        return value
    }

    private mutating func parseValue(depth: Int) throws(DocumentError) -> JSONValue {
        guard position < bytes.count else { throw failure("the document ends where a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(DocumentError) -> JSONValue {
        guard depth <= JSONValue.maximumNestingDepth else {
            throw failure("nesting is deeper than \(JSONValue.maximumNestingDepth) levels")
        }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an object") }
            guard bytes[position] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()) where an object key was expected")
            }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an object") }
            guard bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected ':' after key \(JSONPath.quotedKey(key)), found \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue(depth: depth)
            if members.updateValue(value, forKey: key) != nil {
                throw failure("duplicate key \(JSONPath.quotedKey(key)) makes the object ambiguous")
            }
            path.removeLast()
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an object") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            default: throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(DocumentError) -> JSONValue {
        guard depth <= JSONValue.maximumNestingDepth else {
            throw failure("nesting is deeper than \(JSONValue.maximumNestingDepth) levels")
        }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            let value = try parseValue(depth: depth)
            path.removeLast()
            elements.append(value)
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an array") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseString() throws(DocumentError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<position]))
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("a control character must be escaped inside a string") }
            position += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try buffer.withUnsafeBufferPointer { (pointer) throws(DocumentError) -> String in
                    try makeString(pointer)
                }
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    position -= 1
                    throw failure("invalid escape \\\(describeCurrent()) in a string")
                }
            default:
                if byte < 0x20 { throw failure("a control character must be escaped inside a string") }
                buffer.append(byte)
                position += 1
            }
        }
        throw failure("the document ends inside a string")
    }

    private mutating func parseUnicodeEscape() throws(DocumentError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw failure("a \\u escape holds a lone surrogate")
            }
            position += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("a \\u escape holds a lone surrogate") }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw failure("invalid \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw failure("a \\u escape holds a lone surrogate") }
        return scalar
    }

    private mutating func parseHex4() throws(DocumentError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("the document ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>) throws(DocumentError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string is not valid UTF-8") }
        return text
    }

    private mutating func parseNumber() throws(DocumentError) -> JSONValue {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw failure("a number has no digits") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw failure("a number has a leading zero") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw failure("a number has no digits after '.'")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw failure("a number has no digits in its exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            throw failure("the number \(DocumentError.shortened(text)) is out of range")
        }
        return .double(double)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(DocumentError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard position + expected.count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[position..<position + expected.count]).elementsEqual(expected)
        else { throw failure("unexpected \(describeCurrent()) where a value was expected") }
        position += expected.count
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of document" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func failure(_ reason: String) -> DocumentError {
        let end = min(position, bytes.count)
        var line = 1
        for index in 0..<end where bytes[index] == 0x0A { line += 1 }
        return DocumentError(kind: .syntax, path: JSONPath(components: path), reason: reason, line: line)
    }
}
