import EntitlementKit
import Foundation

// The Qonversion fast reader's value readers, built on `JSONByteReader`'s package API only. Each reads
// the common spelling of a value and misses on every other one (fractions, exponents, signs where none
// belong, odd JSON types, `null` where it is unusual), leaving the general reader to decide.

extension JSONByteReader {
    /// A number written as plain decimal digits — no sign, fraction or exponent — of at most 18 digits,
    /// which the parser reads as that same `Int64`. Anything else is a miss.
    mutating func qonversionDigits() throws(JSONFastPathMiss) -> Int64 {
        skipWhitespace()
        let start = position
        var value: Int64 = 0
        while position < bytes.count {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            guard position - start < 18 else { throw JSONFastPathMiss() }
            value = value * 10 + Int64(digit)
            position += 1
        }
        let count = position - start
        // No digits, a leading zero (a syntax error), or a fraction or exponent next.
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0") else { throw JSONFastPathMiss() }
        if position < bytes.count {
            let next = bytes[position]
            guard next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E") else {
                throw JSONFastPathMiss()
            }
        }
        return value
    }

    /// `qonversionDigits()` with an optional leading `-` (v1 `renew_state` is `-1` for non-renewable).
    mutating func qonversionSignedDigits() throws(JSONFastPathMiss) -> Int64 {
        guard try peek() == UInt8(ascii: "-") else { return try qonversionDigits() }
        position += 1
        // `- 1` is not a number; the digits must follow the sign at once.
        guard position < bytes.count, bytes[position] != 0x20, bytes[position] != 0x0A, bytes[position] != 0x0D,
            bytes[position] != 0x09
        else { throw JSONFastPathMiss() }
        return -(try qonversionDigits())
    }

    /// The activity flag: `true`/`false` or the integer `0`/`1` (`1.0`, `-0` and every other spelling are
    /// left to the general reader).
    mutating func qonversionFlag() throws(JSONFastPathMiss) -> QonversionActiveFlag {
        let byte = try peek()
        if byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") { return QonversionActiveFlag(boolean: try bool()) }
        switch try qonversionDigits() {
        case 0: return .zero
        case 1: return .one
        default: throw JSONFastPathMiss()
        }
    }

    /// Whole seconds since 1970, `nil` for `null`. Only 1970-01-01 to 9999-12-31 (a part of the range the
    /// general reader accepts): a negative count or anything larger is left to it.
    mutating func qonversionEpochSeconds() throws(JSONFastPathMiss) -> Date? {
        if try consumeNull() { return nil }
        let seconds = try qonversionDigits()
        guard seconds <= Self.qonversionLatestEpochSecond else { throw JSONFastPathMiss() }
        return Date(millisecondsSince1970: seconds * 1000)
    }

    /// 9999-12-31T23:59:59Z.
    private static let qonversionLatestEpochSecond: Int64 = 253_402_300_799

    /// An RFC 3339 date string (v4), `nil` for `null`.
    mutating func qonversionISODate() throws(JSONFastPathMiss) -> Date? {
        try consumeNull() ? nil : try date()
    }

    /// A string, `nil` for `null`; any other type is a miss.
    mutating func qonversionOptionalString() throws(JSONFastPathMiss) -> String? {
        try consumeNull() ? nil : try string()
    }

    /// A string where empty means absent, `nil` for `null`; any other type is a miss.
    mutating func qonversionOptionalIdentifier() throws(JSONFastPathMiss) -> String? {
        if try consumeNull() { return nil }
        let text = try string()
        return text.isEmpty ? nil : text
    }

    /// `renew_state`: a name or an integer code, `nil` for `null`; other types (which the general reader
    /// maps to an unknown state) are a miss.
    mutating func qonversionRenewState() throws(JSONFastPathMiss) -> QonversionRenewStateCode? {
        if try consumeNull() { return nil }
        if try isString() { return .name(try string()) }
        return .code(try qonversionSignedDigits())
    }

    /// A count: plain digits up to `Int32.max`, `nil` for `null`.
    mutating func qonversionCount() throws(JSONFastPathMiss) -> Int? {
        if try consumeNull() { return nil }
        let count = try qonversionDigits()
        guard count <= Int64(Int32.max) else { throw JSONFastPathMiss() }
        return Int(count)
    }

    /// Whether an object is next (`null` is `false`); any other type is a miss.
    mutating func qonversionOptionalObjectFollows() throws(JSONFastPathMiss) -> Bool {
        if try consumeNull() { return false }
        guard try peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
        return true
    }

    /// The index of `key` in `names`, or `nil` for a key the reader does not read.
    @inline(__always)
    func qonversionField(_ key: JSONKeySpan, in names: [StaticString]) -> Int? {
        for index in names.indices where self.key(key, is: names[index]) { return index }
        return nil
    }
}

/// The keys of one object seen so far: a bit per key the reader reads (by its index in the reader's
/// key table), a list for the others, so a repeated key — a syntax error — is a miss.
struct QonversionSeenKeys {
    private var mask: UInt32 = 0
    private var others = JSONSeenKeys()

    init() {}

    /// Notes the known key at `index` of the reader's table.
    mutating func mark(_ index: Int) throws(JSONFastPathMiss) {
        let flag: UInt32 = 1 << UInt32(index)
        guard mask & flag == 0 else { throw JSONFastPathMiss() }
        mask |= flag
    }

    /// A member the reader does not read: its key must be new, its value valid JSON.
    mutating func skip(_ key: JSONKeySpan, _ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        try reader.checkUnique(key, among: &others)
        try reader.skipValue()
    }
}
