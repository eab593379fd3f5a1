import Foundation

/// The one validating pass over a document's bytes: checks RFC 8259 strictly and writes the tape
/// (``JSONDocument``), one word per value and per key, in document order.
///
/// Refused, with a ``DocumentError`` of kind `syntax` naming the line and the path reached: invalid UTF-8,
/// trailing content, truncation, duplicate keys in one object, nesting deeper than
/// ``JSONValue/maximumNestingDepth``, lone surrogate escapes, numbers out of range. The path is kept as
/// tape indices while reading and spelled out only for an error.
struct JSONTapeBuilder: ~Copyable {
    /// The zero bytes the text must be followed by: scans (eight bytes at a time) stop at one instead of checking
    /// bounds per byte, and tell the end from a NUL byte in the text only on the way to an error.
    static let padding = 8
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The text's first byte, read without bounds checks: every scan stops at the padding.
    private let text: UnsafePointer<UInt8>
    private var position = 0
    private var tape: GrowableBuffer<UInt64>
    /// Where the reading is, one slot per open non-empty container: the tape index of the key whose value is
    /// being read (0 and up), for an array the element index `i` as `-1 - i`, or ``betweenMembers``.
    private var steps = GrowableBuffer<Int>(capacity: 32)
    private static let betweenMembers = Int.min

    /// Objects with more keys than this check duplicates through a set rather than one by one.
    private static let linearKeyLimit = 24

    /// Reads the `count` bytes at `text`, which must be followed by ``padding`` zero bytes.
    init(text: UnsafePointer<UInt8>, count: Int) {
        self.text = text
        bytes = UnsafeBufferPointer(start: text, count: count)
        tape = GrowableBuffer(capacity: min(count / 8, 1 << 20) + 16)
    }

    /// The tape built, handed over (the caller frees it) with its capacity; at most 2 KiB of room to spare,
    /// so that a large document keeps none of the room the tape grew into.
    mutating func takeTape() -> (elements: UnsafeMutableBufferPointer<UInt64>, capacity: Int) {
        tape.takeStorage(maximumSlack: 256)
    }

    mutating func build() throws(DocumentError) {
        guard bytes.count <= Int(UInt32.max) else { throw failure("the document is larger than 4 GiB") }
        // A UTF-8 byte order mark is tolerated at the very start, as many exporters write one.
        if text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw failure("the document is empty") }
        try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw failure("unexpected \(describeCurrent()) after the end of the document") }
    }

    @inline(__always)
    private mutating func parseValue(depth: Int) throws(DocumentError) {
        switch text[position] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try expectLiteral("true", .true)
        case UInt8(ascii: "f"): try expectLiteral("false", .false)
        case UInt8(ascii: "n"): try expectLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default:
            guard position < bytes.count else { throw failure("the document ends where a value was expected") }
            throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(DocumentError) {
        guard depth <= JSONValue.maximumNestingDepth else {
            throw failure("nesting is deeper than \(JSONValue.maximumNestingDepth) levels")
        }
        position &+= 1
        let container = openContainer()
        skipWhitespace()
        if text[position] == UInt8(ascii: "}") {
            position &+= 1
            closeContainer(container, kind: .object, children: 0)
            return
        }
        let slot = openStep()
        var members = 0
        var keySet: Set<String>?
        var seenPrints: UInt64 = 0
        while true {
            skipWhitespace()
            guard text[position] == UInt8(ascii: "\"") else {
                guard position < bytes.count else { throw failure("the document ends inside an object") }
                throw failure("unexpected \(describeCurrent()) where an object key was expected")
            }
            let key = tape.count
            let word = try parseString()
            skipWhitespace()
            guard text[position] == UInt8(ascii: ":") else {
                guard position < bytes.count else { throw failure("the document ends inside an object") }
                let name = JSONDocument.decodedString(word, in: bytes)
                throw failure("expected ':' after key \(JSONPath.quotedKey(name)), found \(describeCurrent())")
            }
            position &+= 1
            skipWhitespace()
            steps.base[slot] = key
            try parseValue(depth: depth)
            // A key whose fingerprint bit is clear is unlike every earlier one, without comparing it.
            let print = fingerprintBit(of: word)
            if members >= Self.linearKeyLimit || seenPrints & print != 0,
                !isNewKey(word, at: key, in: container, members: members, keySet: &keySet)
            {
                let name = JSONDocument.decodedString(word, in: bytes)
                throw failure("duplicate key \(JSONPath.quotedKey(name)) makes the object ambiguous")
            }
            seenPrints |= print
            steps.base[slot] = Self.betweenMembers
            members &+= 1
            skipWhitespace()
            switch text[position] {
            case UInt8(ascii: ","): position &+= 1
            case UInt8(ascii: "}"):
                position &+= 1
                closeContainer(container, kind: .object, children: members)
                return
            default:
                guard position < bytes.count else { throw failure("the document ends inside an object") }
                throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
            }
        }
    }

    /// Whether the key just read (`word`, at tape index `key`) differs from the `members` keys before it in
    /// the object at `container`. Keys are equal as Swift strings are (canonical equivalence), as the
    /// object's dictionary compares them: up to ``linearKeyLimit`` keys are walked on the tape, beyond it
    /// kept in a set.
    @inline(never)
    private func isNewKey(
        _ word: UInt64, at key: Int, in container: Int, members: Int, keySet: inout Set<String>?
    ) -> Bool {
        var other = container + 1
        if members < Self.linearKeyLimit {
            while other < key {
                if JSONDocument.sameKey(tape[other], word, in: bytes) { return false }
                other = nextKey(after: other)
            }
            return true
        }
        if keySet == nil {
            var keys = Set<String>()
            while other < key {
                keys.insert(JSONDocument.decodedString(tape[other], in: bytes))
                other = nextKey(after: other)
            }
            keySet = keys
        }
        return keySet?.insert(JSONDocument.decodedString(word, in: bytes)).inserted ?? false
    }

    /// The tape index of the key after the member whose key is at `key`.
    @inline(__always)
    private func nextKey(after key: Int) -> Int {
        let value = tape[key + 1]
        return JSONDocument.isContainer(value) ? key + 2 + JSONDocument.offset(of: value) : key + 2
    }

    /// One of 64 bits for a plain ASCII key, from its length and first and last eight bytes (equal keys,
    /// equal bits); every bit for any other key, which is compared as a string.
    @inline(__always)
    private func fingerprintBit(of word: UInt64) -> UInt64 {
        let length = JSONDocument.storedLength(of: word)
        guard JSONDocument.isASCIIString(word), length != JSONDocument.lengthLimit else { return ~0 }
        // The padding keeps eight bytes readable from any key's start.
        let raw = UnsafeRawPointer(text + JSONDocument.offset(of: word))
        var head = raw.loadUnaligned(as: UInt64.self)
        var tail: UInt64 = 0
        if length < 8 {
            head &= (1 &<< (UInt64(length) &* 8)) &- 1
        } else {
            tail = raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        }
        return 1 &<< ((head &* 0x9E37_79B9_7F4A_7C15 ^ tail ^ UInt64(length) &<< 56) &>> 58)
    }

    private mutating func parseArray(depth: Int) throws(DocumentError) {
        guard depth <= JSONValue.maximumNestingDepth else {
            throw failure("nesting is deeper than \(JSONValue.maximumNestingDepth) levels")
        }
        position &+= 1
        let container = openContainer()
        skipWhitespace()
        if text[position] == UInt8(ascii: "]") {
            position &+= 1
            closeContainer(container, kind: .array, children: 0)
            return
        }
        let slot = openStep()
        var count = 0
        while true {
            skipWhitespace()
            steps.base[slot] = -1 - count
            try parseValue(depth: depth)
            steps.base[slot] = Self.betweenMembers
            count &+= 1
            skipWhitespace()
            switch text[position] {
            case UInt8(ascii: ","): position &+= 1
            case UInt8(ascii: "]"):
                position &+= 1
                closeContainer(container, kind: .array, children: count)
                return
            default:
                guard position < bytes.count else { throw failure("the document ends inside an array") }
                throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
    }

    private mutating func openContainer() -> Int {
        tape.append(0)
        return tape.count - 1
    }

    /// A container's step slot, written unchecked: it is in the buffer until ``closeContainer(_:kind:children:)``.
    private mutating func openStep() -> Int {
        steps.append(Self.betweenMembers)
        return steps.count - 1
    }

    private mutating func closeContainer(_ index: Int, kind: JSONDocument.Kind, children: Int) {
        if children > 0 { steps.removeLast() }
        tape[index] = JSONDocument.word(kind, length: children, offset: tape.count - index - 1)
    }

    /// Reads the string whose opening quote is at `position` and writes its word, which it returns. A plain
    /// ASCII string (keys and most values) is one scan; any other goes on in ``parseString(from:stoppedAt:)``.
    @inline(__always) @discardableResult
    private mutating func parseString() throws(DocumentError) -> UInt64 {
        let start = position &+ 1
        let end = endOfPlainASCII(from: start)
        guard text[end] == UInt8(ascii: "\"") else { return try parseString(from: start, stoppedAt: end) }
        let word = JSONDocument.word(.asciiString, length: end &- start, offset: start)
        tape.append(word)
        position = end &+ 1
        return word
    }

    /// The rest of the string that starts at `start`, from `stop`, where its plain ASCII run stopped.
    private mutating func parseString(from start: Int, stoppedAt stop: Int) throws(DocumentError) -> UInt64 {
        position = stop
        var hasEscapes = false
        var hasNonASCII = false
        while true {
            let byte = text[position]
            if byte == UInt8(ascii: "\"") {
                // Escapes are ASCII, so the raw bytes are valid UTF-8 exactly when the text is.
                if hasNonASCII, !Self.isValidUTF8(UnsafeBufferPointer(start: text + start, count: position - start)) {
                    throw failure("a string is not valid UTF-8")
                }
                let kind: JSONDocument.Kind = hasEscapes ? .escapedString : hasNonASCII ? .utf8String : .asciiString
                let word = JSONDocument.word(kind, length: position - start, offset: start)
                tape.append(word)
                position += 1
                return word
            }
            guard position < bytes.count else { throw failure("the document ends inside a string") }
            if byte < 0x20 { throw failure("a control character must be escaped inside a string") }
            position += 1
            if byte >= 0x80 {
                hasNonASCII = true
            } else {  // A backslash.
                hasEscapes = true
                switch text[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    position += 1
                    try parseUnicodeEscape()
                default:
                    guard position < bytes.count else { throw failure("the document ends inside a string") }
                    throw failure("invalid escape \\\(describeCurrent()) in a string")
                }
            }
            position = endOfPlainASCII(from: position)
        }
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
        if text[position] == UInt8(ascii: "-") { position += 1 }
        guard isDigit(text[position]) else { throw failure("a number has no digits") }
        let integerStart = position
        if text[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(text[position]) { throw failure("a number has a leading zero") }
        } else {
            position = endOfDigits(from: position)
        }
        let integerDigits = position - integerStart
        var hasExponent = false
        if text[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard isDigit(text[position]) else { throw failure("a number has no digits after '.'") }
            position = endOfDigits(from: position)
        }
        if text[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            hasExponent = true
            position += 1
            if text[position] == UInt8(ascii: "+") || text[position] == UInt8(ascii: "-") { position += 1 }
            guard isDigit(text[position]) else { throw failure("a number has no digits in its exponent") }
            position = endOfDigits(from: position)
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

    /// `true`, `false` or `null` (its first byte already seen), its last four bytes compared as one word.
    @inline(__always)
    private mutating func expectLiteral(_ literal: StaticString, _ kind: JSONDocument.Kind) throws(DocumentError) {
        let count = literal.utf8CodeUnitCount
        // The padding keeps four bytes readable from any offset in the text.
        let found = UnsafeRawPointer(text + position + count - 4).loadUnaligned(as: UInt32.self)
        guard found == UnsafeRawPointer(literal.utf8Start + count - 4).loadUnaligned(as: UInt32.self) else {
            throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
        tape.append(JSONDocument.word(kind, length: count, offset: position))
        position += count
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Minified text costs one comparison here: every whitespace byte is at most 0x20.
    @inline(__always)
    private mutating func skipWhitespace() {
        guard text[position] <= 0x20 else { return }
        while true {
            switch text[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position &+= 1
            default: return
            }
        }
    }

    /// The offset of the first byte at or after `start` that is not an ASCII digit; eight bytes at a time.
    @inline(__always)
    private func endOfDigits(from start: Int) -> Int {
        var index = start
        while true {
            let word = UInt64(littleEndian: UnsafeRawPointer(text + index).loadUnaligned(as: UInt64.self))
            // A digit's byte minus 0x30 is 0…9, and adding 6 leaves it below 0x10: a byte with a high nibble set
            // either way is not a digit (a carry can only mark bytes after it).
            let offsets = word ^ 0x3030_3030_3030_3030
            let others = (offsets | (offsets &+ 0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0
            if others != 0 { return index &+ others.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
    }

    /// The offset of the first byte at or after `start` that is `"`, `\`, a control character or non-ASCII
    /// (at the latest the padding's first byte); eight bytes at a time.
    @inline(__always)
    private func endOfPlainASCII(from start: Int) -> Int {
        var index = start
        while true {
            let word = UInt64(littleEndian: UnsafeRawPointer(text + index).loadUnaligned(as: UInt64.self))
            let special = Self.specialBytes(in: word)
            if special != 0 { return index &+ special.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
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

    /// Well-formed UTF-8 (Unicode table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), as
    /// the standard library's parser checks it.
    static func isValidUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var bytes = text.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
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
        let components = steps.elements(0..<steps.count).compactMap { step -> JSONPath.Component? in
            guard step != Self.betweenMembers else { return nil }
            return step >= 0 ? .key(JSONDocument.decodedString(tape[step], in: bytes)) : .index(-1 - step)
        }
        return DocumentError(kind: .syntax, path: JSONPath(components: components), reason: reason, line: line)
    }
}
