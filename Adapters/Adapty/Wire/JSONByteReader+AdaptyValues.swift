import EntitlementKit
import Foundation

// The Adapty fast reader's value readers, built on `JSONByteReader`'s package API only. Each reads the
// common spelling of a value and misses on every other one (a wrong JSON type, a fraction where an
// integer belongs), leaving the general reader to decide.

extension JSONByteReader {
    /// A string, `nil` for `null`; any other type is a miss.
    mutating func adaptyOptionalString() throws(JSONFastPathMiss) -> String? {
        try consumeNull() ? nil : try string()
    }

    /// A string where empty means absent, `nil` for `null`; any other type is a miss.
    mutating func adaptyOptionalIdentifier() throws(JSONFastPathMiss) -> String? {
        guard let text = try adaptyOptionalString() else { return nil }
        return text.isEmpty ? nil : text
    }

    /// A boolean, `nil` for `null`; any other type is a miss.
    mutating func adaptyOptionalBool() throws(JSONFastPathMiss) -> Bool? {
        try consumeNull() ? nil : try bool()
    }

    /// An RFC 3339 date, `nil` for `null`; anything else is a miss.
    mutating func adaptyOptionalDate() throws(JSONFastPathMiss) -> Date? {
        try consumeNull() ? nil : try date()
    }

    /// An enumeration whose presence matters (an offer type, `cancellation_reason`): `null` is none, a
    /// string is kept, any other value is validated, skipped and unnamed, as the general reader takes it.
    mutating func adaptyEnumerationValue() throws(JSONFastPathMiss) -> AdaptyEnumerationValue {
        if try consumeNull() { return .none }
        if try isString() { return .named(try string()) }
        try skipValue()
        return .unnamed
    }

    /// `timestamp` in milliseconds: plain digits (at most 18), or a `-` and digits (a negative value, "not
    /// said"); `null`, zero and negative values are `nil`. Fractions, exponents and values past 9999 are a
    /// miss.
    mutating func adaptyTimestamp() throws(JSONFastPathMiss) -> Date? {
        if try consumeNull() { return nil }
        var isNegative = false
        if try peek() == UInt8(ascii: "-") {
            isNegative = true
            position += 1
        }
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
        if isNegative || value == 0 { return nil }
        guard value <= RFC3339.supportedMilliseconds.upperBound else { throw JSONFastPathMiss() }
        return Date(millisecondsSince1970: value)
    }

    /// Whether an object is next (`null` is `false`); any other type is a miss.
    mutating func adaptyOptionalObjectFollows() throws(JSONFastPathMiss) -> Bool {
        if try consumeNull() { return false }
        guard try peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
        return true
    }

    /// The index of `key` in `names`, or `nil` for a key the reader does not read.
    @inline(__always)
    func adaptyField(_ key: JSONKeySpan, in names: [StaticString]) -> Int? {
        for index in names.indices where self.key(key, is: names[index]) { return index }
        return nil
    }
}

/// The keys of one object seen so far: a bit per key the reader reads (by its index in the reader's key
/// table), a list for the others, so a repeated key — a syntax error — is a miss.
struct AdaptySeenKeys {
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
