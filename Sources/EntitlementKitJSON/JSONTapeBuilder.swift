import Foundation

/// The one validating pass over a document's bytes: checks RFC 8259 strictly and writes the tape
/// (``JSONDocument``), one word per value and per key, in document order.
///
/// Refused, with a ``DocumentError`` of kind `syntax` naming the line and the path reached: invalid UTF-8,
/// trailing content, truncation, duplicate keys in one object, nesting deeper than
/// ``JSONValue/maximumNestingDepth``, lone surrogate escapes, numbers out of range. The path is kept as
/// tape indices while reading and spelled out only for an error.
struct JSONTapeBuilder: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var tape: GrowableBuffer<UInt64>
    /// Where the reading is, per open container: the key's tape index (0 and up) or, for an array, the
    /// element index `i` stored as `-1 - i`.
    private var steps = GrowableBuffer<Int>(capacity: 32)
    /// The keys of the objects being read (tape indices), for the duplicate check.
    private var openKeys = GrowableBuffer<Int>(capacity: 64)
    /// Each open key's ``fingerprint(of:)``, at the same position as in `openKeys`.
    private var openFingerprints = GrowableBuffer<UInt64>(capacity: 64)

    /// Objects with more keys than this check duplicates through a set rather than one by one.
    private static let linearKeyLimit = 24

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        tape = GrowableBuffer(capacity: min(bytes.count / 8, 1 << 20) + 16)
    }

    /// The tape built, handed over (the caller frees it) with its capacity; at most 2 KiB of room to spare,
    /// so that a large document keeps none of the room the tape grew into.
    mutating func takeTape() -> (elements: UnsafeMutableBufferPointer<UInt64>, capacity: Int) {
        tape.takeStorage(maximumSlack: 256)
    }

    mutating func build() throws(DocumentError) {
        guard bytes.count <= Int(UInt32.max) else { throw failure("the document is larger than 4 GiB") }
        // A UTF-8 byte order mark is tolerated at the very start, as many exporters write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw failure("the document is empty") }
        try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw failure("unexpected \(describeCurrent()) after the end of the document") }
    }

    private mutating func parseValue(depth: Int) throws(DocumentError) {
        guard position < bytes.count else { throw failure("the document ends where a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try expectLiteral("true", .true)
        case UInt8(ascii: "f"): try expectLiteral("false", .false)
        case UInt8(ascii: "n"): try expectLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(DocumentError) {
        guard depth <= JSONValue.maximumNestingDepth else {
            throw failure("nesting is deeper than \(JSONValue.maximumNestingDepth) levels")
        }
        position += 1
        let container = openContainer()
        let firstKey = openKeys.count
        var keySet: Set<String>?
        var seenPrints: UInt64 = 0
        defer {
            openKeys.removeSuffix(from: firstKey)
            openFingerprints.removeSuffix(from: firstKey)
        }
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            closeContainer(container, kind: .object, children: 0)
            return
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an object") }
            guard bytes[position] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()) where an object key was expected")
            }
            let key = tape.count
            try parseString()
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an object") }
            guard bytes[position] == UInt8(ascii: ":") else {
                let name = JSONDocument.decodedString(tape[key], in: bytes)
                throw failure("expected ':' after key \(JSONPath.quotedKey(name)), found \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            steps.append(key)
            try parseValue(depth: depth)
            if try !insertKey(key, firstKey: firstKey, into: &keySet, seen: &seenPrints) {
                let name = JSONDocument.decodedString(tape[key], in: bytes)
                throw failure("duplicate key \(JSONPath.quotedKey(name)) makes the object ambiguous")
            }
            steps.removeLast()
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an object") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                closeContainer(container, kind: .object, children: openKeys.count - firstKey)
                return
            default: throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
            }
        }
    }

    /// Adds the key at tape index `key` to the open object's keys; `false` when an equal key is there.
    /// Keys are equal as Swift strings are (canonical equivalence), as the object's dictionary compares them.
    /// Plain ASCII keys are told apart by a fingerprint of their length and first and last bytes, and their
    /// bytes compared only when the fingerprints agree. `seen` has a bit per fingerprint seen in the object
    /// (all bits once a key without one is there): a key whose bit is clear is new without comparing it.
    @inline(__always)
    private mutating func insertKey(
        _ key: Int, firstKey: Int, into keySet: inout Set<String>?, seen: inout UInt64
    ) throws(DocumentError) -> Bool {
        let word = tape[key]
        let print = fingerprint(of: word)
        defer {
            openKeys.append(key)
            openFingerprints.append(print)
        }
        if keySet == nil, openKeys.count - firstKey < Self.linearKeyLimit {
            let bit: UInt64 = print == 0 ? ~0 : 1 << (print >> 58)
            defer { seen |= bit }
            if seen & bit == 0 { return true }
            var other = firstKey
            while other < openKeys.count {
                let otherPrint = openFingerprints[other]
                if print != 0, otherPrint != 0 {
                    if print == otherPrint, JSONDocument.sameKey(tape[openKeys[other]], word, in: bytes) {
                        return false
                    }
                } else if JSONDocument.sameKey(tape[openKeys[other]], word, in: bytes) {
                    return false
                }
                other += 1
            }
            return true
        }
        if keySet == nil {
            keySet = Set(
                openKeys.elements(firstKey..<openKeys.count).map { JSONDocument.decodedString(tape[$0], in: bytes) })
        }
        return keySet?.insert(JSONDocument.decodedString(tape[key], in: bytes)).inserted ?? false
    }

    /// Length, first and last eight bytes of a plain ASCII key folded into a non-zero word (equal keys have
    /// equal fingerprints); 0 for any other key, which is compared as a string.
    @inline(__always)
    private func fingerprint(of word: UInt64) -> UInt64 {
        guard JSONDocument.isASCIIString(word) else { return 0 }
        let start = JSONDocument.offset(of: word)
        let length = JSONDocument.storedLength(of: word)
        guard length != JSONDocument.lengthLimit, let base = bytes.baseAddress else { return 0 }
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if length >= 8 {
            let raw = UnsafeRawPointer(base + start)
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        } else {
            for offset in 0..<length { head = head << 8 | UInt64(base[start + offset]) }
        }
        return (head &* 0x9E37_79B9_7F4A_7C15 ^ tail ^ UInt64(length) << 56) | 1
    }

    private mutating func parseArray(depth: Int) throws(DocumentError) {
        guard depth <= JSONValue.maximumNestingDepth else {
            throw failure("nesting is deeper than \(JSONValue.maximumNestingDepth) levels")
        }
        position += 1
        let container = openContainer()
        var count = 0
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            closeContainer(container, kind: .array, children: 0)
            return
        }
        while true {
            skipWhitespace()
            steps.append(-1 - count)
            try parseValue(depth: depth)
            steps.removeLast()
            count += 1
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends inside an array") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                closeContainer(container, kind: .array, children: count)
                return
            default: throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
    }

    private mutating func openContainer() -> Int {
        tape.append(0)
        return tape.count - 1
    }

    private mutating func closeContainer(_ index: Int, kind: JSONDocument.Kind, children: Int) {
        tape[index] = JSONDocument.word(kind, length: children, offset: tape.count - index - 1)
    }

    private mutating func parseString() throws(DocumentError) {
        position += 1  // opening quote
        let start = position
        var hasEscapes = false
        var hasNonASCII = false
        while position < bytes.count {
            // Plain ASCII runs a word at a time: keys and most values are plain.
            position = endOfPlainASCII(from: position)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                // Escapes are ASCII, so the raw bytes are valid UTF-8 exactly when the text is.
                if hasNonASCII, !Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[start..<position])) {
                    throw failure("a string is not valid UTF-8")
                }
                let kind: JSONDocument.Kind = hasEscapes ? .escapedString : hasNonASCII ? .utf8String : .asciiString
                tape.append(JSONDocument.word(kind, length: position - start, offset: start))
                position += 1
                return
            }
            if byte < 0x20 { throw failure("a control character must be escaped inside a string") }
            if byte >= 0x80 {
                hasNonASCII = true
                position += 1
                continue
            }
            // A backslash.
            hasEscapes = true
            position += 1
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                break
            case UInt8(ascii: "u"): try parseUnicodeEscape()
            default:
                position -= 1
                throw failure("invalid escape \\\(describeCurrent()) in a string")
            }
        }
        throw failure("the document ends inside a string")
    }

    private mutating func parseUnicodeEscape() throws(DocumentError) {
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
            return
        }
        guard Unicode.Scalar(first) != nil else { throw failure("a \\u escape holds a lone surrogate") }
    }

    private mutating func parseHex4() throws(DocumentError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("the document ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONDocument.hexDigit(bytes[position]) else { throw failure("invalid \\u escape") }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(DocumentError) {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw failure("a number has no digits") }
        let integerStart = position
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw failure("a number has a leading zero") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let integerDigits = position - integerStart
        var hasExponent = false
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
            hasExponent = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw failure("a number has no digits in its exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let length = position - start
        // Up to 18 digits always fit in 64 bits; longer integers are checked, and a fraction without an
        // exponent is finite unless its integer part has hundreds of digits.
        if isInteger, integerDigits <= 18 {
            tape.append(JSONDocument.word(.integer, length: length, offset: start))
            return
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, Int64(text) != nil {
            tape.append(JSONDocument.word(.integer, length: length, offset: start))
            return
        }
        if hasExponent || integerDigits > 300 {
            guard let double = Double(text), double.isFinite else {
                throw failure("the number \(DocumentError.shortened(text)) is out of range")
            }
        }
        tape.append(JSONDocument.word(.double, length: length, offset: start))
    }

    private mutating func expectLiteral(_ literal: StaticString, _ kind: JSONDocument.Kind) throws(DocumentError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count, let base = bytes.baseAddress,
            memcmp(base + position, literal.utf8Start, count) == 0
        else { throw failure("unexpected \(describeCurrent()) where a value was expected") }
        tape.append(JSONDocument.word(kind, length: count, offset: position))
        position += count
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

    /// The offset of the first byte at or after `start` that is `"`, `\`, a control character or non-ASCII,
    /// or `bytes.count`; eight bytes at a time.
    @inline(__always)
    private func endOfPlainASCII(from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let special = Self.specialBytes(in: word)
                if special != 0 { return index + special.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return index }
            index += 1
        }
        return index
    }

    /// The high bit of every byte of `word` (first byte lowest) that is `"`, `\`, below 0x20 or 0x80 and
    /// above. Only the lowest bit set is exact (a borrow can mark a byte after a marked one).
    @inline(__always)
    private static func specialBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote & high
        let isBackslash = (backslash &- ones) & ~backslash & high
        let isControl = (word &- ones &* 0x20) & ~word & high
        return isQuote | isBackslash | isControl | (word & high)
    }

    /// Well-formed UTF-8 (Unicode table 3-7): no overlong forms, no surrogates, nothing above U+10FFFF.
    static func isValidUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < text.count {
            let lead = text[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let count: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0:
                count = 2
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED:
                count = 2
                high = 0x9F
            case 0xF0:
                count = 3
                low = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4:
                count = 3
                high = 0x8F
            default: return false
            }
            guard index + count < text.count else { return false }
            let second = text[index + 1]
            guard second >= low, second <= high else { return false }
            var offset = 2
            while offset <= count {
                guard text[index + offset] & 0xC0 == 0x80 else { return false }
                offset += 1
            }
            index += count + 1
        }
        return true
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
        let components = steps.elements(0..<steps.count).map { step -> JSONPath.Component in
            step >= 0 ? .key(JSONDocument.decodedString(tape[step], in: bytes)) : .index(-1 - step)
        }
        return DocumentError(kind: .syntax, path: JSONPath(components: components), reason: reason, line: line)
    }
}
