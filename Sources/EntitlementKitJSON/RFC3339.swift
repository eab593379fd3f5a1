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
        return text.withUTF8 { parse($0) }.map(Date.init(millisecondsSince1970:))
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

    /// ``date(from:)`` on UTF-8 bytes, as milliseconds since 1970 (the fast readers parse dates in place).
    package static func milliseconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        parse(bytes)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (`length` 20) or `YYYY-MM-DDTHH:MM:SS.sssZ` (24) at `text`, with exactly
    /// ``date(from:)``'s checks and arithmetic; `nil` for anything else (which the general parser then
    /// reads). The fast readers' common case, without the general parser's per-character branching.
    package static func milliseconds(fixedLayoutAt text: UnsafePointer<UInt8>, length: Int) -> Int64? {
        @inline(__always) func digits(_ offset: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in offset..<offset + count {
                let digit = text[index] &- 0x30
                guard digit <= 9 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
            text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[length - 1] == UInt8(ascii: "Z"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
            let minute = digits(14, 2), let second = digits(17, 2)
        else { return nil }
        var milliseconds: Int64 = 0
        if length == 24 {
            guard text[19] == UInt8(ascii: "."), let fraction = digits(20, 3) else { return nil }
            milliseconds = fraction
        } else {
            guard length == 20 else { return nil }
        }
        guard supportedYears.contains(Int(year)), (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        let instant = (days * 86_400 + hour * 3600 + minute * 60 + second) * 1000 + milliseconds
        guard supportedMilliseconds.contains(instant) else { return nil }
        return instant
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
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
        guard supportedYears.contains(Int(year)), (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
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
        guard index == bytes.count else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        let secondsOfDay = hour * 3600 + minute * 60 + second
        let instant = (days * 86_400 + secondsOfDay - offsetMinutes * 60) * 1000 + milliseconds
        // An offset can carry 0001-01-01 or 9999-12-31 out of the years a canonical date can write.
        guard supportedMilliseconds.contains(instant) else { return nil }
        return instant
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
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        if milliseconds.isNaN { return 0 }
        if milliseconds >= 0x1p63 { return .max }
        if milliseconds < -0x1p63 { return .min }
        return Int64(milliseconds)
    }
}
