import Foundation

/// Internet date-time (RFC 3339) parsing and the canonical snapshot date format.
///
/// Hand-written rather than `ISO8601DateFormatter`, which is 20–40× slower on Linux, and stricter than
/// `Date.ISO8601FormatStyle`, which rolls `2024-02-30` over to March: an impossible date is an error.
/// Dates carry millisecond precision; finer fractions are truncated.
public enum RFC3339 {
    /// Parses `2025-06-01T12:00:00Z`, `2025-06-01T12:00:00.123Z`, `2025-06-01T14:00:00+02:00` (also `+0200`).
    /// A time-zone designator is required; anything else, including impossible calendar dates, is `nil`.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { milliseconds(utf8: $0) }.map(Date.init(millisecondsSince1970:))
    }

    /// The canonical form: UTC with `Z`, milliseconds only when non-zero.
    public static func string(from date: Date) -> String {
        let (year, month, day, remainder) = CivilCalendar.components(ofMilliseconds: date.millisecondsSince1970)
        let hour = remainder / 3_600_000
        let minute = remainder / 60_000 % 60
        let second = remainder / 1000 % 60
        let fraction = remainder % 1000
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":"
            + pad(second, 2)
        if fraction != 0 { text += "." + pad(fraction, 3) }
        return text + "Z"
    }

    /// The years a canonical date can express.
    public static let supportedYears = 1...9999

    /// ``milliseconds(utf8:)`` for `YYYY-MM-DDTHH:MM:SSZ` and `YYYY-MM-DDTHH:MM:SS.sssZ`, `nil` for any other
    /// text: the common case read as three overlapping words, `YYYY-MM-`, `DDTHH:MM` and `H:MM:SSZ`
    /// (`:SS.sssZ`), each checked at once, its separators against a pattern and all its digits together.
    package static func milliseconds(fixedLayout bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let length = bytes.count
        /// Byte `i` of the result: the two-digit number at bytes `i` and `i + 1` of the word at `offset`, whose
        /// bytes must be `pattern`'s where `digits` has 0 and decimal digits where it has 0xFF.
        @inline(__always) func pairs(at offset: Int, _ pattern: UInt64, _ digits: UInt64) -> UInt64? {
            let word = UInt64(
                littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let candidate = (word & digits) | (0x3030_3030_3030_3030 & ~digits)
            // A byte outside "0"…"9" sets its high bit in one of the two (no byte below it carries or borrows).
            let outside =
                ((candidate &+ 0x4646_4646_4646_4646) | (candidate &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080
            guard ((word ^ pattern) & ~digits) | outside == 0 else { return nil }
            let values = candidate &- 0x3030_3030_3030_3030
            return values &* 10 &+ (values >> 8)
        }
        func byte(_ word: UInt64, _ index: UInt64) -> Int64 { Int64((word >> (8 * index)) & 0xFF) }
        guard length == 20 || length == 24,
            let date = pairs(at: 0, 0x2D00_002D_0000_0000, 0x00FF_FF00_FFFF_FFFF),
            let time = pairs(at: 8, 0x0000_3A00_0054_0000, 0xFFFF_00FF_FF00_FFFF),
            let end = length == 20
                ? pairs(at: 12, 0x5A00_003A_0000_3A00, 0x00FF_FF00_FFFF_00FF)
                : pairs(at: 16, 0x5A00_0000_2E00_003A, 0x00FF_FFFF_00FF_FF00)
        else { return nil }
        let (second, fraction) =
            length == 20 ? (byte(end, 5), 0) : (byte(end, 1), (byte(end, 4) * 100 + byte(end, 6)) / 10)
        return milliseconds(
            year: byte(date, 0) * 100 + byte(date, 2), month: byte(date, 5), day: byte(time, 0), hour: byte(time, 3),
            minute: byte(time, 6), second: second
        ).map { $0 + fraction }
    }

    /// The instant of a date and a time of day in UTC, `nil` unless it is a real one of ``supportedYears``.
    private static func milliseconds(
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
    ) -> Int64? {
        guard supportedYears.contains(Int(year)), (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        return (days * 86_400 + hour * 3600 + minute * 60 + second) * 1000
    }

    /// ``date(from:)`` on UTF-8 bytes, as milliseconds since 1970 (the readers parse dates in place).
    package static func milliseconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        if let instant = milliseconds(fixedLayout: bytes) { return instant }
        var index = 0
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
                index += 1
            }
            return value
        }
        func expect(_ character: UInt8, or other: UInt8? = nil) -> Bool {
            guard index < bytes.count, bytes[index] == character || bytes[index] == other else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T"), or: UInt8(ascii: "t")), let hour = number(2),
            expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2)
        else { return nil }
        var milliseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 3 { milliseconds = milliseconds * 10 + Int64(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        var offsetMinutes: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        default:
            return nil
        }
        guard index == bytes.count,
            let local = self.milliseconds(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        let instant = local - offsetMinutes * 60_000 + milliseconds
        // An offset can carry 0001-01-01 or 9999-12-31 out of the years a canonical date can write.
        return supportedMilliseconds.contains(instant) ? instant : nil
    }

    /// 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    package static let supportedMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Date {
    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Whole milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest. Saturates at the ends of
    /// `Int64` (and is 0 for a NaN date) instead of trapping: no date a document can hold comes near, but an
    /// app can build any `Date`.
    public var millisecondsSince1970: Int64 {
        let milliseconds = timeIntervalSince1970 * 1000
        guard abs(milliseconds) < 0x1p63 else { return milliseconds.isNaN ? 0 : milliseconds > 0 ? .max : .min }
        // `rounded()` (halves away from zero) without its call into the C library: `fraction` is exact.
        let whole = Int64(milliseconds)
        let fraction = milliseconds - Double(whole)
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }
}
