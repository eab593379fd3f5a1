/// Why bytes are not the DER this package reads.
package struct DERError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, and at which byte offset.
    package var description: String

    init(_ reason: String, at offset: Int) {
        description = "\(reason) at byte \(offset)"
    }
}

/// One DER element: its tag and where its content and the whole element lie in the reader's bytes.
struct DERElement: Sendable {
    var tag: UInt8
    var content: Range<Int>
    var whole: Range<Int>
}

/// A strict reader of DER (X.690 §10) over hostile bytes: single-byte tags, definite lengths in their
/// shortest form only (no indefinite form, at most four length bytes), and never a byte past the range
/// it was given. It walks one level at a time; callers descend with ``children(of:)``, so nesting is as
/// deep as the structure the caller expects and no deeper.
struct DERReader: Sendable {
    let bytes: [UInt8]
    private(set) var position: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0..<bytes.count)
    }

    private init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// Whether every element in range has been read.
    var isAtEnd: Bool { position >= end }

    /// The tag of the next element, without reading it.
    var nextTag: UInt8? { isAtEnd ? nil : bytes[position] }

    /// A reader over the content of `element` (a constructed one: a SEQUENCE, a SET, an explicit tag).
    func children(of element: DERElement) -> DERReader {
        DERReader(bytes, range: element.content)
    }

    /// The next element, whatever its tag.
    mutating func read() throws(DERError) -> DERElement {
        let start = position
        guard position < end else { throw DERError("an element is missing", at: position) }
        let tag = bytes[position]
        guard tag & 0x1F != 0x1F else { throw DERError("a multi-byte tag is not read", at: position) }
        position += 1
        guard position < end else { throw DERError("the length is missing", at: position) }
        let first = bytes[position]
        position += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count != 0 else { throw DERError("an indefinite length is not DER", at: position - 1) }
            guard count <= 4 else { throw DERError("a length of \(count) bytes is too long", at: position - 1) }
            guard end - position >= count else { throw DERError("the length is cut short", at: position) }
            guard bytes[position] != 0 else { throw DERError("a length with a leading zero is not DER", at: position) }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            guard length >= 0x80 else { throw DERError("a long-form length under 128 is not DER", at: start + 1) }
        }
        guard length <= end - position else {
            throw DERError("an element of \(length) bytes runs past its container", at: start)
        }
        let content = position..<(position + length)
        position += length
        return DERElement(tag: tag, content: content, whole: start..<position)
    }

    /// The next element, which must have `tag`.
    mutating func read(_ tag: UInt8, _ what: String) throws(DERError) -> DERElement {
        let offset = position
        let element = try read()
        guard element.tag == tag else {
            throw DERError(
                "\(what) was expected (tag 0x\(String(tag, radix: 16))), not tag 0x\(String(element.tag, radix: 16))",
                at: offset)
        }
        return element
    }

    /// The next element if it has `tag`, else `nil` (nothing is read).
    mutating func readIfPresent(_ tag: UInt8) throws(DERError) -> DERElement? {
        nextTag == tag ? try read() : nil
    }

    /// Throws unless every element has been read.
    func expectEnd(_ what: String) throws(DERError) {
        guard isAtEnd else { throw DERError("\(what) has bytes after its last element", at: position) }
    }

    /// The content bytes of `element`.
    func content(of element: DERElement) -> ArraySlice<UInt8> {
        bytes[element.content]
    }

    /// The bytes of the whole element (tag, length and content).
    func encoding(of element: DERElement) -> ArraySlice<UInt8> {
        bytes[element.whole]
    }
}

/// DER's universal tags this package reads.
enum DERTag {
    static let boolean: UInt8 = 0x01
    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let octetString: UInt8 = 0x04
    static let objectIdentifier: UInt8 = 0x06
    static let utcTime: UInt8 = 0x17
    static let generalizedTime: UInt8 = 0x18
    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31

    /// `[n]` EXPLICIT (constructed, context-specific).
    static func explicit(_ number: UInt8) -> UInt8 { 0xA0 | number }
}
