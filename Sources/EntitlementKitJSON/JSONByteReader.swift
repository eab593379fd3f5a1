import Foundation

/// Why a fast path gave up on a document: it holds something the fast path does not read (an escape in
/// a key, a value of an unexpected type, a syntax error, anything unusual). It carries nothing on
/// purpose: the general reader then reads the document and gives the answer or the located error.
package struct JSONFastPathMiss: Error {
    @inlinable
    package init() {}
}

/// A member key as it sits in the document: plain ASCII without escapes (anything else is a miss, so
/// comparing bytes is comparing strings).
package struct JSONKeySpan: Sendable {
    package let start: Int
    package let count: Int

    @inlinable
    package init(start: Int, count: Int) {
        self.start = start
        self.count = count
    }
}

/// The keys of one object seen so far, for the duplicate check: the first few inline (no allocation for
/// the objects of ordinary documents), the rest in an array.
package struct JSONSeenKeys {
    private var inline: (JSONKeySpan, JSONKeySpan, JSONKeySpan, JSONKeySpan, JSONKeySpan, JSONKeySpan) = (
        .empty, .empty, .empty, .empty, .empty, .empty
    )
    private var inlineCount = 0
    private var overflow: [JSONKeySpan] = []

    package init() {}

    /// Adds `key` unless an equal key is there already; `false` then.
    mutating func insert(_ key: JSONKeySpan, comparing reader: JSONByteReader) -> Bool {
        let isNew = withUnsafeBytes(of: &inline) { raw in
            let keys = raw.bindMemory(to: JSONKeySpan.self)
            for index in 0..<inlineCount where reader.sameKey(keys[index], key) { return false }
            return true
        }
        guard isNew else { return false }
        for other in overflow where reader.sameKey(other, key) { return false }
        if inlineCount < 6 {
            withUnsafeMutableBytes(of: &inline) { raw in raw.bindMemory(to: JSONKeySpan.self)[inlineCount] = key }
            inlineCount += 1
        } else {
            overflow.append(key)
        }
        return true
    }
}

extension JSONKeySpan {
    fileprivate static let empty = JSONKeySpan(start: 0, count: 0)
}

/// A strict, forward-only reader over one JSON document's UTF-8 bytes, for the adapters' fast paths.
///
/// It accepts exactly what ``JSONValue/parse(_:)`` accepts or gives up (``JSONFastPathMiss``): no
/// value tree, no dictionaries, no `String` for keys, no path; the general reader is the fallback and
/// the only source of errors. Skipped values are validated as strictly as read ones (UTF-8, escapes,
/// surrogates, number grammar, duplicate keys, nesting), so a document the fast path accepts is one the
/// general parser accepts.
package struct JSONByteReader {
    package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package var position: Int
    /// The document's top-level keys, when a fast path that detects formats asks for them: an adapter's
    /// fast reader appends every key of the document's outermost object (``recordTopLevelKey(_:)``).
    package var topLevelKeys: [JSONKeySpan]?
    /// Nesting the fast path follows; deeper documents go to the general parser (limit 256).
    private static let maximumDepth = 64

    /// A reader over `bytes`; a leading UTF-8 byte order mark is skipped, as the parser does.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// A reader over `bytes[range]`, a value found by another reader.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = UnsafeBufferPointer(rebasing: bytes[..<range.upperBound])
        position = range.lowerBound
    }

    // MARK: Structure

    @inlinable
    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Only whitespace is left.
    package mutating func expectEnd() throws(JSONFastPathMiss) {
        skipWhitespace()
        guard position == bytes.count else { throw JSONFastPathMiss() }
    }

    /// The next byte after whitespace, not consumed.
    @inlinable @inline(__always)
    package mutating func peek() throws(JSONFastPathMiss) -> UInt8 {
        // Compact documents have no whitespace between tokens: one comparison decides, in line.
        if position < bytes.count, bytes[position] > 0x20 { return bytes[position] }
        return try peekAfterWhitespace()
    }

    /// ``peek()`` when the next byte may be whitespace.
    @usableFromInline
    package mutating func peekAfterWhitespace() throws(JSONFastPathMiss) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else { throw JSONFastPathMiss() }
        return bytes[position]
    }

    /// Consumes `{`.
    package mutating func beginObject() throws(JSONFastPathMiss) {
        guard try peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
        position += 1
    }

    /// Consumes `[`.
    package mutating func beginArray() throws(JSONFastPathMiss) {
        guard try peek() == UInt8(ascii: "[") else { throw JSONFastPathMiss() }
        position += 1
    }

    /// The next member's key with its `:` consumed, or `nil` after the closing `}`. `isFirst` starts true
    /// for each object.
    package mutating func nextKey(_ isFirst: inout Bool) throws(JSONFastPathMiss) -> JSONKeySpan? {
        var byte = try peek()
        if isFirst {
            isFirst = false
            if byte == UInt8(ascii: "}") {
                position += 1
                return nil
            }
        } else {
            if byte == UInt8(ascii: "}") {
                position += 1
                return nil
            }
            guard byte == UInt8(ascii: ",") else { throw JSONFastPathMiss() }
            position += 1
            byte = try peek()
        }
        guard byte == UInt8(ascii: "\"") else { throw JSONFastPathMiss() }
        position += 1
        let start = position
        position = endOfPlainASCII(from: start)
        // Escapes, controls and non-ASCII keys: left to the general reader (it compares keys as strings).
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw JSONFastPathMiss() }
        let key = JSONKeySpan(start: start, count: position - start)
        position += 1
        guard try peek() == UInt8(ascii: ":") else { throw JSONFastPathMiss() }
        position += 1
        return key
    }

    /// Whether there is another element; consumes the `,` before it or the closing `]`. `isFirst` starts
    /// true for each array.
    package mutating func nextElement(_ isFirst: inout Bool) throws(JSONFastPathMiss) -> Bool {
        let byte = try peek()
        if byte == UInt8(ascii: "]") {
            position += 1
            return false
        }
        if isFirst {
            isFirst = false
            return true
        }
        guard byte == UInt8(ascii: ",") else { throw JSONFastPathMiss() }
        position += 1
        return true
    }

    /// Notes a key of the document's outermost object (see ``topLevelKeys``).
    package mutating func recordTopLevelKey(_ key: JSONKeySpan) {
        topLevelKeys?.append(key)
    }

    /// Whether `key` is `name`. Fast readers dispatch on `key.count` first (a `switch`), so a key is
    /// compared with one or two names of its length rather than with every name in turn.
    @inlinable @inline(__always)
    package func key(_ key: JSONKeySpan, is name: StaticString) -> Bool {
        Self.key(key, in: bytes, is: name)
    }

    /// ``key(_:is:)`` without the reader: for dispatch helpers that take only the document's bytes (passing
    /// the reader itself would copy it).
    @inlinable @inline(__always)
    package static func key(_ key: JSONKeySpan, in bytes: UnsafeBufferPointer<UInt8>, is name: StaticString) -> Bool {
        let count = key.count
        guard count == name.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        let text = UnsafeRawPointer(base + key.start)
        let expected = UnsafeRawPointer(name.utf8Start)
        guard count >= 8 else { return memcmp(text, expected, count) == 0 }
        // Whole words, the last one overlapping the one before: no byte loop, no call.
        var offset = 0
        while offset + 8 < count {
            guard
                text.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        return text.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == expected.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    /// Whether two keys are the same text.
    @inlinable
    package func sameKey(_ first: JSONKeySpan, _ second: JSONKeySpan) -> Bool {
        guard first.count == second.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + first.start, base + second.start, first.count) == 0
    }

    /// The key as a `String` (for keys that are data: entitlement and product ids).
    package func string(of key: JSONKeySpan) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[key.start..<key.start + key.count]), as: UTF8.self)
    }

    /// Refuses a key equal to one in `seen`, then adds it: duplicate keys are a syntax error.
    package func checkUnique(_ key: JSONKeySpan, among seen: inout [JSONKeySpan]) throws(JSONFastPathMiss) {
        for other in seen where sameKey(other, key) { throw JSONFastPathMiss() }
        seen.append(key)
    }

    /// ``checkUnique(_:among:)-([JSONKeySpan])`` for ``JSONSeenKeys``, which allocates nothing for
    /// objects with few keys (most of them).
    package func checkUnique(_ key: JSONKeySpan, among seen: inout JSONSeenKeys) throws(JSONFastPathMiss) {
        guard seen.insert(key, comparing: self) else { throw JSONFastPathMiss() }
    }

    // MARK: Values

    /// Consumes `null` if it is next.
    package mutating func consumeNull() throws(JSONFastPathMiss) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    package mutating func bool() throws(JSONFastPathMiss) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: throw JSONFastPathMiss()
        }
    }

    /// A string value.
    package mutating func string() throws(JSONFastPathMiss) -> String {
        let (start, end, plain) = try stringSpan()
        let span = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if plain == .ascii { return String(decoding: span, as: UTF8.self) }
        if plain == .utf8 {
            guard let text = String(validating: span, as: UTF8.self) else { throw JSONFastPathMiss() }
            return text
        }
        return try unescaped(span)
    }

    /// An RFC 3339 date string, as milliseconds since 1970.
    package mutating func date() throws(JSONFastPathMiss) -> Date {
        // The layout nearly every date has, `"YYYY-MM-DDTHH:MM:SS[.sss]Z"`, is read in place; any other
        // text goes through the general RFC 3339 parser below (same arithmetic, same checks).
        if try peek() == UInt8(ascii: "\""), let base = bytes.baseAddress {
            let available = bytes.count - position
            var length = 20
            while length <= 24 {
                if available >= length + 2, base[position + length + 1] == UInt8(ascii: "\""),
                    let milliseconds = RFC3339.milliseconds(fixedLayoutAt: base + position + 1, length: length)
                {
                    position += length + 2
                    return Date(millisecondsSince1970: milliseconds)
                }
                length += 4
            }
        }
        let (start, end, plain) = try stringSpan()
        guard plain == .ascii,
            let milliseconds = RFC3339.milliseconds(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        else { throw JSONFastPathMiss() }
        return Date(millisecondsSince1970: milliseconds)
    }

    /// Whether the next value is a string (without consuming it).
    package mutating func isString() throws(JSONFastPathMiss) -> Bool {
        try peek() == UInt8(ascii: "\"")
    }

    /// Validates and skips any value.
    package mutating func skipValue() throws(JSONFastPathMiss) {
        try skipValue(depth: 0)
    }

    /// The range of the next value, validated and skipped.
    package mutating func valueRange() throws(JSONFastPathMiss) -> Range<Int> {
        skipWhitespace()
        let start = position
        try skipValue(depth: 0)
        return start..<position
    }

    private mutating func skipValue(depth: Int) throws(JSONFastPathMiss) {
        switch try peek() {
        case UInt8(ascii: "\""): _ = try stringSpan()
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw JSONFastPathMiss() }
            position += 1
            var isFirst = true
            var seen = JSONSeenKeys()
            while let key = try nextKey(&isFirst) {
                try checkUnique(key, among: &seen)
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw JSONFastPathMiss() }
            position += 1
            var isFirst = true
            while try nextElement(&isFirst) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try skipNumber()
        }
    }

    private mutating func literal(_ text: StaticString) throws(JSONFastPathMiss) {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw JSONFastPathMiss() }
        let expected = text.utf8Start
        for offset in 0..<count where bytes[position + offset] != expected[offset] { throw JSONFastPathMiss() }
        position += count
    }

    /// A number, checked against the parser's grammar; numbers the parser could refuse as out of range
    /// (an exponent, hundreds of digits) are left to it.
    private mutating func skipNumber() throws(JSONFastPathMiss) {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw JSONFastPathMiss() }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw JSONFastPathMiss() }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw JSONFastPathMiss() }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            throw JSONFastPathMiss()
        }
        guard position - start < 300 else { throw JSONFastPathMiss() }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The offset of the first byte at or after `start` that ends a run of plain string text — `"`, `\`,
    /// a control character or a non-ASCII byte — or `bytes.count`. Eight bytes at a time: keys and most
    /// values are plain ASCII, and a byte-by-byte loop was a large part of the fast path's time (issue 12).
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
    /// above. Only the lowest bit set is exact (a borrow can mark a byte after a marked one), which is the
    /// one `endOfPlainASCII` uses.
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

    private enum StringContent { case ascii, utf8, escaped }

    /// Skips a string, checking it as the parser does; returns its content's byte range and kind.
    private mutating func stringSpan() throws(JSONFastPathMiss) -> (Int, Int, StringContent) {
        guard try peek() == UInt8(ascii: "\"") else { throw JSONFastPathMiss() }
        position += 1
        let start = position
        var content = StringContent.ascii
        while true {
            // Plain ASCII runs are skipped a word at a time; the loop below looks only at the byte ending one.
            position = endOfPlainASCII(from: position)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let end = position
                position += 1
                if content == .utf8 {
                    // Validated here for skipped strings; kept ones are validated again as they are made.
                    guard String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) != nil
                    else { throw JSONFastPathMiss() }
                }
                return (start, end, content)
            }
            if byte < 0x20 { throw JSONFastPathMiss() }
            if byte >= 0x80 {
                if content == .ascii { content = .utf8 }
            } else if byte == UInt8(ascii: "\\") {
                content = .escaped
                try skipEscape()
                continue
            }
            position += 1
        }
        throw JSONFastPathMiss()
    }

    /// Skips one escape after checking it; a string with escapes is then validated whole by `unescaped`
    /// when kept, and here when skipped (surrogates).
    private mutating func skipEscape() throws(JSONFastPathMiss) {
        position += 1
        guard position < bytes.count else { throw JSONFastPathMiss() }
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            let first = try hex4()
            if (0xD800...0xDBFF).contains(first) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw JSONFastPathMiss() }
                position += 2
                guard (0xDC00...0xDFFF).contains(try hex4()) else { throw JSONFastPathMiss() }
            } else if (0xDC00...0xDFFF).contains(first) {
                throw JSONFastPathMiss()
            }
        default: throw JSONFastPathMiss()
        }
    }

    private mutating func hex4() throws(JSONFastPathMiss) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONFastPathMiss() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw JSONFastPathMiss()
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    /// The text of a string with escapes (already checked by `stringSpan`).
    private func unescaped(_ span: UnsafeBufferPointer<UInt8>) throws(JSONFastPathMiss) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(span.count)
        var index = 0
        func hex(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for offset in 0..<4 {
                let byte = span[at + offset]
                let digit: UInt8 =
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                    default: byte - UInt8(ascii: "A") + 10
                    }
                value = value * 16 + UInt32(digit)
            }
            return value
        }
        while index < span.count {
            let byte = span[index]
            guard byte == UInt8(ascii: "\\") else {
                buffer.append(byte)
                index += 1
                continue
            }
            let escape = span[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var value = hex(index)
                index += 4
                if (0xD800...0xDBFF).contains(value) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (hex(index + 2) - 0xDC00)
                    index += 6
                }
                guard let scalar = Unicode.Scalar(value) else { throw JSONFastPathMiss() }
                buffer.append(contentsOf: String(Character(scalar)).utf8)
            default: buffer.append(escape)
            }
        }
        guard let text = String(validating: buffer, as: UTF8.self) else { throw JSONFastPathMiss() }
        return text
    }
}

extension JSONByteReader {
    /// Skips the next value by its structure alone (string quotes, bracket nesting), without checking
    /// it, and returns its range. Whoever uses the value must read that range strictly, to its end.
    package mutating func structuralSkip() throws(JSONFastPathMiss) -> Range<Int> {
        skipWhitespace()
        let start = position
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < bytes.count else { throw JSONFastPathMiss() }
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return start..<position }
                depth -= 1
                position += 1
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 { return start..<position }
                position += 1
            default:
                position += 1
            }
            if depth == 0, byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "\"") {
                return start..<position
            }
        }
        guard depth == 0, position > start else { throw JSONFastPathMiss() }
        return start..<position
    }
}
