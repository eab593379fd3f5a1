import Foundation

/// One JSON document as read once: its bytes and a flat index of its values (a tape, as swift-asn1's DER
/// reader and simdjson keep), which ``JSONNode`` is a view over.
///
/// The tape holds one 64-bit word per value and per object key, in document order: a kind, and for a
/// scalar its byte offset and length in the text, for an array or object its number of children and the
/// number of words inside it (so a reader steps over a whole container at once). Nothing else is made
/// until a reader asks for it: no tree, no dictionaries, no strings for keys, no paths.
@usableFromInline final class JSONDocument: @unchecked Sendable {
    // Sendable: never changed after `init`; the byte buffer is owned and freed by this object alone.

    /// The document's text (for a document made from a ``JSONValue``: its strings' and numbers' text).
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    /// One word per value and key (see ``word(_:length:offset:)``), owned and freed by this object alone.
    /// Read without bounds checks: every index a reader uses comes from the tape itself, which the one
    /// validating pass built.
    @usableFromInline let tape: UnsafeBufferPointer<UInt64>
    /// The words allocated for ``tape`` (room it grew into included).
    private let tapeCapacity: Int
    /// Where the document's root sits in a larger document (the root by default), for errors' paths.
    let rootPath: JSONPath

    /// The kinds of tape words.
    @usableFromInline enum Kind: UInt64 {
        case null, `false`, `true`, integer, double
        /// A string without escapes, all ASCII / with non-ASCII text / with escapes.
        case asciiString, utf8String, escapedString
        case array, object
    }

    /// Parses `data` strictly (see ``JSONValue/parse(_:)-(Data)``).
    init(parsing data: Data) throws(DocumentError) {
        // The text, copied in one move, and the zero bytes the builder reads past its end.
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: data.count + JSONTapeBuilder.padding)
        data.copyBytes(to: storage, count: data.count)
        (storage + data.count).initialize(repeating: 0, count: JSONTapeBuilder.padding)
        var builder = JSONTapeBuilder(text: storage, count: data.count)
        do {
            try builder.build()
        } catch {
            storage.deallocate()
            throw error
        }
        bytes = UnsafeBufferPointer(start: storage, count: data.count)
        // Taken over without a copy (a copy of every tape was a tenth of the pass).
        let (words, capacity) = builder.takeTape()
        tape = UnsafeBufferPointer(words)
        tapeCapacity = capacity
        rootPath = .root
    }

    /// A document holding `value`, its root at `path`.
    init(_ value: JSONValue, path: JSONPath) {
        var text: [UInt8] = []
        var tape: [UInt64] = []
        Self.append(value, text: &text, tape: &tape)
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(text.count, 1))
        _ = storage.initialize(from: text)
        bytes = UnsafeBufferPointer(rebasing: storage[..<text.count])
        let words = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(tape.count, 1))
        _ = words.initialize(from: tape)
        self.tape = UnsafeBufferPointer(rebasing: words[..<tape.count])
        tapeCapacity = max(tape.count, 1)
        rootPath = path
    }

    deinit {
        UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
        UnsafeMutableRawPointer(mutating: tape.baseAddress)?.deallocate()
    }

    /// The bytes the document holds: its text and its tape (capacity included). A document of `n` bytes
    /// takes at most about `n + 8 × (values and keys)`: a 5-million-element array of single digits, 10 MB of
    /// text, takes some 50 MB, where the tree of `JSONValue`s took several times more.
    var storageByteCount: Int { bytes.count + tapeCapacity * MemoryLayout<UInt64>.stride }

    // MARK: Words

    @usableFromInline static let lengthLimit = (1 << 28) - 1

    /// A word: kind in the top 4 bits, length (or a container's children) in the next 28 (saturated), offset
    /// (or a container's count of words inside) in the low 32.
    static func word(_ kind: Kind, length: Int, offset: Int) -> UInt64 {
        kind.rawValue << 60 | UInt64(min(length, lengthLimit)) << 32 | UInt64(UInt32(truncatingIfNeeded: offset))
    }

    @inlinable @inline(__always) static func kind(of word: UInt64) -> Kind {
        // The kinds are numbered 0…9 in declaration order, so a kind's raw value is its tag: no table lookup.
        let raw = UInt8(truncatingIfNeeded: word >> 60)
        return raw <= Kind.object.rawValue ? unsafeBitCast(raw, to: Kind.self) : .null
    }
    /// Whether `word` is an array's or an object's (kinds 8 and 9): one shift, where ``kind(of:)`` is a lookup.
    @inlinable @inline(__always) static func isContainer(_ word: UInt64) -> Bool { word >> 61 == 4 }
    /// Whether `word` is a string without escapes or non-ASCII bytes.
    @inlinable @inline(__always) static func isASCIIString(_ word: UInt64) -> Bool {
        word >> 60 == Kind.asciiString.rawValue
    }
    @inlinable static func offset(of word: UInt64) -> Int { Int(word & 0xFFFF_FFFF) }
    @inlinable static func storedLength(of word: UInt64) -> Int { Int((word >> 32) & 0x0FFF_FFFF) }

    @inlinable func kind(at index: Int) -> Kind { Self.kind(of: tape[index]) }

    /// The index of the word after the value at `index` (after the whole container).
    @inlinable @inline(__always) func next(after index: Int) -> Int {
        let word = tape[index]
        return Self.isContainer(word) ? index + 1 + Self.offset(of: word) : index + 1
    }

    /// The number of children of the container at `index`.
    func childCount(at index: Int) -> Int {
        let stored = Self.storedLength(of: tape[index])
        guard stored == Self.lengthLimit else { return stored }
        var count = 0
        var child = index + 1
        let end = next(after: index)
        while child < end {
            count += 1
            child = next(after: kind(at: index) == .object ? child + 1 : child)
        }
        return count
    }

    /// The text of the scalar at `index` (a string's without its quotes).
    @inline(__always) func text(at index: Int) -> UnsafeBufferPointer<UInt8> {
        Self.text(of: tape[index], in: bytes)
    }

    @inlinable
    static func text(of word: UInt64, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = offset(of: word)
        var length = storedLength(of: word)
        if length == lengthLimit { length = textLength(from: start, kind: kind(of: word), in: bytes) }
        return UnsafeBufferPointer(rebasing: bytes[start..<start + length])
    }

    /// A text too long for its word's length field, measured again (a string to its closing quote).
    @usableFromInline static func textLength(from start: Int, kind: Kind, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = start
        switch kind {
        case .asciiString, .utf8String, .escapedString:
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
        default:
            while end < bytes.count, !"\"\t\n\r ,]}".utf8.contains(bytes[end]) { end += 1 }
        }
        return end - start
    }

    // MARK: Strings

    /// The string (or key) at `index`.
    @usableFromInline func string(at index: Int) -> String { Self.decodedString(tape[index], in: bytes) }

    @usableFromInline static func decodedString(_ word: UInt64, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = Self.text(of: word, in: bytes)
        guard kind(of: word) == .escapedString else { return String(decoding: text, as: UTF8.self) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(text.count)
        var index = 0
        func hex(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 * 16 + (hexDigit(text[at + $1]) ?? 0) }
        }
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\") else {
                buffer.append(byte)
                index += 1
                continue
            }
            let escape = text[index + 1]
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
                buffer.append(contentsOf: String(Character(Unicode.Scalar(value) ?? "\u{FFFD}")).utf8)
            default: buffer.append(escape)
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Whether two keys are the same string as Swift compares strings (canonical equivalence): by their
    /// bytes when both are plain ASCII, as strings otherwise.
    @inline(__always)
    static func sameKey(_ first: UInt64, _ second: UInt64, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if kind(of: first) == .asciiString, kind(of: second) == .asciiString {
            // Different lengths (both below the saturated value) are different keys: no bytes to compare.
            let length = storedLength(of: first)
            if length != storedLength(of: second), length != lengthLimit, storedLength(of: second) != lengthLimit {
                return false
            }
            let one = text(of: first, in: bytes)
            let other = text(of: second, in: bytes)
            return sameBytes(one, other)
        }
        return decodedString(first, in: bytes) == decodedString(second, in: bytes)
    }

    /// Whether two byte runs are equal. Keys are short: up to 24 bytes compare in line, a word at a time
    /// (the first and last eight bytes overlap for lengths that are not a multiple of eight), where a call
    /// to `memcmp` for every key found cost more than the comparison.
    @inlinable @inline(__always)
    static func sameBytes(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = one.count
        guard count == other.count else { return false }
        guard let first = one.baseAddress, let second = other.baseAddress else { return true }
        guard count >= 8 else {
            var difference: UInt8 = 0
            for offset in 0..<count { difference |= first[offset] ^ second[offset] }
            return difference == 0
        }
        guard count <= 24 else { return memcmp(first, second, count) == 0 }
        func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
            UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        let middle = count > 16 ? word(first, 8) ^ word(second, 8) : 0
        return (word(first, 0) ^ word(second, 0)) | (word(first, count - 8) ^ word(second, count - 8)) | middle == 0
    }

    /// Whether `one` sorts before `other`, byte by byte (a prefix first).
    static func precedes(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(one.count, other.count)
        if common > 0, let first = one.baseAddress, let second = other.baseAddress {
            let order = memcmp(first, second, common)
            if order != 0 { return order < 0 }
        }
        return one.count < other.count
    }

    /// The value of member `name` of the object at `index`, or `nil`. Keys compare as Swift strings do
    /// (canonical equivalence), by their bytes when both are plain ASCII: a plain key of another length is
    /// passed over on its word alone, and the members are stepped over on the tape without decoding them.
    @inlinable func member(_ name: String, ofObjectAt index: Int) -> Int? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ member(utf8: $0, ofObjectAt: index) }) {
            return found
        }
        var copy = name
        return copy.withUTF8 { member(utf8: $0, ofObjectAt: index) }
    }

    @inlinable func member(utf8 name: UnsafeBufferPointer<UInt8>, ofObjectAt index: Int) -> Int? {
        guard name.count < Self.lengthLimit, let words = tape.baseAddress, let text = bytes.baseAddress else {
            return member(decoded: name, ofObjectAt: index)
        }
        // A plain key's kind and length against the name's in one comparison; a key of any other kind, or
        // too long for its length field (its head outside the plain keys' range), is compared as a string.
        let plain = Kind.asciiString.rawValue << 60
        let target = plain | UInt64(name.count) << 32
        let end = index + 1 + Self.offset(of: words[index])
        var key = index + 1
        while key < end {
            let word = words[key]
            let head = word & 0xFFFF_FFFF_0000_0000
            if head == target {
                if Self.sameBytes(UnsafeBufferPointer(start: text + Self.offset(of: word), count: name.count), name) {
                    return key + 1
                }
            } else if head &- plain >= UInt64(Self.lengthLimit) << 32 {
                if Self.decodedString(word, in: bytes) == String(decoding: name, as: UTF8.self) { return key + 1 }
            }
            // Wrapping arithmetic: the tape's own offsets, from the one validating pass, cannot overflow.
            let value = words[key &+ 1]
            key &+= 2 &+ (Self.isContainer(value) ? Self.offset(of: value) : 0)
        }
        // A name that is not plain ASCII may equal a plain key as a string (the Kelvin sign and `K`).
        return Self.isPlainASCII(name) ? nil : member(decoded: name, ofObjectAt: index)
    }

    /// ``member(_:ofObjectAt:)`` for a name that is not plain ASCII: every key compared as a string.
    @usableFromInline func member(decoded name: UnsafeBufferPointer<UInt8>, ofObjectAt index: Int) -> Int? {
        let text = String(decoding: name, as: UTF8.self)
        var key = index + 1
        let end = next(after: index)
        while key < end {
            if Self.decodedString(tape[key], in: bytes) == text { return key + 1 }
            key = next(after: key + 1)
        }
        return nil
    }

    /// Whether every byte is below 0x80 (eight bytes at a time).
    @inlinable static func isPlainASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        var high: UInt64 = 0
        var offset = 0
        while offset + 8 <= text.count {
            high |= UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < text.count {
            high |= UInt64(base[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// The path of the value at `index`: found by walking down from the root.
    @usableFromInline func path(to index: Int) -> JSONPath {
        var components = rootPath.components
        var container = 0
        descending: while container != index {
            let isObject = kind(at: container) == .object
            var child = container + 1
            var position = 0
            let end = next(after: container)
            while child < end {
                let value = isObject ? child + 1 : child
                let valueEnd = next(after: value)
                if index == child && isObject { break descending }  // a key: its object's path
                if index >= value && index < valueEnd {
                    components.append(isObject ? .key(string(at: child)) : .index(position))
                    container = value
                    continue descending
                }
                child = valueEnd
                position += 1
            }
            break
        }
        return JSONPath(components: components)
    }

    // MARK: Values

    /// The integer at `index` (an `.integer` word, whose length is exact: it fits 64 bits, so 20 characters at most).
    func integer(at index: Int) -> Int64 {
        let (start, count) = (Self.offset(of: tape[index]), Self.storedLength(of: tape[index]))
        guard count <= 19, let base = bytes.baseAddress.map({ $0 + start }) else {
            return Int64(String(decoding: text(at: index), as: UTF8.self)) ?? 0
        }
        // Up to 19 characters: at most 18 digits after a sign, or 19 the tape builder found to fit.
        let negative = base.pointee == UInt8(ascii: "-")
        var value: Int64 = 0
        for offset in (negative ? 1 : 0)..<count { value = value &* 10 &+ Int64(base[offset] &- 0x30) }
        return negative ? -value : value
    }

    /// The number at `index` (an `.integer` or `.double` word) as a `Double`.
    func double(at index: Int) -> Double {
        if kind(at: index) == .integer { return Double(integer(at: index)) }
        return Double(String(decoding: text(at: index), as: UTF8.self)) ?? .nan
    }

    /// The value at `index` as a tree.
    func value(at index: Int) -> JSONValue {
        switch kind(at: index) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .integer: return .integer(integer(at: index))
        case .double: return .double(double(at: index))
        case .asciiString, .utf8String, .escapedString: return .string(string(at: index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(childCount(at: index))
            var child = index + 1
            let end = next(after: index)
            while child < end {
                elements.append(value(at: child))
                child = next(after: child)
            }
            return .array(elements)
        case .object:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(childCount(at: index))
            var key = index + 1
            let end = next(after: index)
            while key < end {
                members[string(at: key)] = value(at: key + 1)
                key = next(after: key + 1)
            }
            return .object(members)
        }
    }

    /// Writes `value`'s tape: strings' text raw (their words say "no escapes"), numbers as Swift prints
    /// them (which reads back exactly, `nan` and `inf` included).
    private static func append(_ value: JSONValue, text: inout [UInt8], tape: inout [UInt64]) {
        func scalar(_ kind: Kind, _ utf8: some Collection<UInt8>) {
            tape.append(word(kind, length: utf8.count, offset: text.count))
            text.append(contentsOf: utf8)
        }
        func string(_ string: String) {
            scalar(string.utf8.allSatisfy { $0 < 0x80 } ? .asciiString : .utf8String, string.utf8)
        }
        switch value {
        case .null: scalar(.null, "null".utf8)
        case .bool(let flag): scalar(flag ? .true : .false, (flag ? "true" : "false").utf8)
        case .integer(let integer): scalar(.integer, String(integer).utf8)
        case .double(let double): scalar(.double, "\(double)".utf8)
        case .string(let text): string(text)
        case .array(let elements):
            let container = tape.count
            tape.append(0)
            for element in elements { append(element, text: &text, tape: &tape) }
            tape[container] = word(.array, length: elements.count, offset: tape.count - container - 1)
        case .object(let members):
            let container = tape.count
            tape.append(0)
            for key in JSONWriter.sortedKeys(members) {
                string(key)
                append(members[key] ?? .null, text: &text, tape: &tape)
            }
            tape[container] = word(.object, length: members.count, offset: tape.count - container - 1)
        }
    }
}
