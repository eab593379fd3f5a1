import EntitlementKit
import Foundation

/// The bytes of a ledger row: a version byte, then the row's fields in a fixed order — unsigned numbers
/// as LEB128, signed ones zig-zagged first, strings and bytes prefixed with their count. No text coder
/// on the path every input takes; a row the first layout wrote (JSON) starts with another byte and is
/// read once by ``LedgerLegacyRows``, then written again in this form.
enum LedgerRowFormat {
    /// The first byte of every row in this layout: never the first byte of a JSON text.
    static let version: UInt8 = 0xB2

    /// Whether `data` is a row of this layout (else one of the first layout's JSON rows).
    static func isCurrent(_ data: Data) -> Bool { data.first == version }
}

/// Writes one row's fields after the version byte.
struct LedgerRowWriter {
    private(set) var bytes: [UInt8] = [LedgerRowFormat.version]

    var data: Data { Data(bytes) }

    mutating func count(_ value: Int) { unsigned(UInt64(max(value, 0))) }

    mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func integer(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func bytes(_ value: some Collection<UInt8>) {
        count(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) { bytes(value.utf8) }

    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    /// An instant, exactly: the bits of its `timeIntervalSinceReferenceDate`.
    mutating func date(_ value: Date) { unsigned(value.timeIntervalSinceReferenceDate.bitPattern) }

    mutating func threadID(_ value: LedgerThreadID) {
        string(value.source.rawValue)
        string(value.key)
    }

    mutating func order(_ value: LedgerOrderKey) {
        count(value.parts.count)
        for part in value.parts {
            switch part {
            case .number(let number):
                bool(false)
                integer(number)
            case .bytes(let partBytes):
                bool(true)
                bytes(partBytes)
            }
        }
    }

    mutating func accountLink(_ link: LedgerAccountLink) {
        bool(link.key != nil)
        if let key = link.key {
            string(key.kind.rawValue)
            string(key.value)
        }
        optionalString(link.appUserId)
    }
}

/// Reads one row's fields in the order its writer wrote them; a row that ends early or holds what its
/// field cannot be is refused (`storage`), naming its table.
struct LedgerRowReader {
    private let bytes: [UInt8]
    private var offset = 1
    private let table: LedgerTable

    init(_ data: Data, table: LedgerTable) {
        self.bytes = Array(data)
        self.table = table
    }

    var isAtEnd: Bool { offset >= bytes.count }

    private func malformed() -> LedgerRefusal {
        LedgerRefusal(.storage, "a row of \(table.rawValue) does not read (it ends early or holds a wrong field)")
    }

    mutating func unsigned() throws(LedgerRefusal) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw malformed()
    }

    mutating func count() throws(LedgerRefusal) -> Int {
        let value = try unsigned()
        // Every element takes a byte at least: a larger count is a damaged row, not an allocation.
        guard value <= UInt64(bytes.count - offset) else { throw malformed() }
        return Int(value)
    }

    mutating func integer() throws(LedgerRefusal) -> Int64 {
        let value = try unsigned()
        return Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    mutating func bool() throws(LedgerRefusal) -> Bool {
        guard offset < bytes.count, bytes[offset] <= 1 else { throw malformed() }
        offset += 1
        return bytes[offset - 1] == 1
    }

    mutating func byteArray() throws(LedgerRefusal) -> ArraySlice<UInt8> {
        let count = try count()
        guard count <= bytes.count - offset else { throw malformed() }
        offset += count
        return bytes[(offset - count)..<offset]
    }

    mutating func string() throws(LedgerRefusal) -> String {
        guard let string = String(validating: try byteArray(), as: UTF8.self) else { throw malformed() }
        return string
    }

    mutating func optionalString() throws(LedgerRefusal) -> String? {
        try bool() ? try string() : nil
    }

    mutating func date() throws(LedgerRefusal) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(bitPattern: try unsigned()))
    }

    mutating func threadID() throws(LedgerRefusal) -> LedgerThreadID {
        LedgerThreadID(source: LedgerSourceID(rawValue: try string()), key: try string())
    }

    mutating func order() throws(LedgerRefusal) -> LedgerOrderKey {
        var parts: [LedgerOrderKey.Part] = []
        for _ in 0..<(try count()) {
            parts.append(try bool() ? .bytes(Array(try byteArray())) : .number(try integer()))
        }
        return LedgerOrderKey(parts)
    }

    mutating func accountLink() throws(LedgerRefusal) -> LedgerAccountLink {
        var key: LedgerAccountKey?
        if try bool() {
            let kind = LedgerAccountKey.Kind(rawValue: try string())
            // Stored as registered (a token already lower-cased): not normalised again.
            var stored = LedgerAccountKey(kind, "")
            stored.value = try string()
            key = stored
        }
        return LedgerAccountLink(key: key, appUserId: try optionalString())
    }

    /// Every byte not read yet.
    mutating func rest() -> ArraySlice<UInt8> {
        defer { offset = bytes.count }
        return bytes[min(offset, bytes.count)...]
    }
}
