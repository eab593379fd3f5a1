import Foundation

/// An ISO 8601 duration as scenarios write them: `P1M`, `P7D`, `PT5M`, `P1Y2M3DT4H5M6S`, `P2W`, `-P10D`.
///
/// Years and months are calendar months in UTC, added to the day of the month and clamped to the
/// month's length (Jan 31 + `P1M` = Feb 28, + `P2M` = Mar 31). Weeks, days, hours, minutes and seconds
/// are fixed lengths (UTC has no daylight saving). A leading `-` negates every part. Seconds may carry
/// a fraction (kept to the millisecond).
public struct ISODuration: Sendable, Hashable, CustomStringConvertible {
    /// Calendar months (years × 12 + months).
    public let months: Int
    /// The fixed part in milliseconds (weeks, days, hours, minutes, seconds).
    public let milliseconds: Int64
    /// The text it was read from (canonical for values made in code).
    public let text: String

    /// A duration of calendar `months` plus `milliseconds`.
    public init(months: Int = 0, milliseconds: Int64 = 0) {
        self.months = months
        self.milliseconds = milliseconds
        self.text = Self.canonicalText(months: months, milliseconds: milliseconds)
    }

    /// Reads ISO 8601 duration text; `nil` for anything else (empty parts, `P`, `PT`, a unit out of
    /// order, a fraction anywhere but on the seconds, `T` without a time part).
    public init?(_ text: String) {
        var rest = Substring(text)
        var sign: Int64 = 1
        if rest.hasPrefix("-") {
            sign = -1
            rest = rest.dropFirst()
        } else if rest.hasPrefix("+") {
            rest = rest.dropFirst()
        }
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var months: Int64 = 0
        var millis: Int64 = 0
        var inTime = false
        var sawPart = false
        var sawTimePart = false
        var order = 0
        let dateUnits: [Character: (rank: Int, months: Int64, millis: Int64)] = [
            "Y": (1, 12, 0), "M": (2, 1, 0), "W": (3, 0, 604_800_000), "D": (4, 0, 86_400_000),
        ]
        let timeUnits: [Character: (rank: Int, millis: Int64)] = [
            "H": (5, 3_600_000), "M": (6, 60_000), "S": (7, 1000),
        ]
        while let first = rest.first {
            if first == "T" {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !digits.isEmpty, digits.first != ".", digits.last != "." else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first else { return nil }
            rest = rest.dropFirst()
            let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, let whole = Int64(parts[0]), whole <= 1_000_000 else { return nil }
            var fractionMillis: Int64 = 0
            if parts.count == 2 {
                guard inTime, unit == "S" else { return nil }
                let fraction = String(parts[1].prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)
                guard let value = Int64(fraction) else { return nil }
                fractionMillis = value
            }
            if inTime {
                guard let entry = timeUnits[unit], entry.rank > order else { return nil }
                order = entry.rank
                millis += whole * entry.millis + fractionMillis
                sawTimePart = true
            } else {
                guard let entry = dateUnits[unit], entry.rank > order else { return nil }
                order = entry.rank
                months += whole * entry.months
                millis += whole * entry.millis
            }
            sawPart = true
        }
        guard sawPart, !inTime || sawTimePart else { return nil }
        self.months = Int(sign * months)
        self.milliseconds = sign * millis
        self.text = text
    }

    /// Whether it moves time at all.
    public var isZero: Bool { months == 0 && milliseconds == 0 }
    /// Whether it moves time back.
    public var isNegative: Bool { months < 0 || (months == 0 && milliseconds < 0) }
    /// Whether it has calendar months (and so no fixed length).
    public var hasCalendarMonths: Bool { months != 0 }

    /// The fixed length, for a duration without calendar months.
    public var fixedDuration: Duration? {
        months == 0 ? .milliseconds(milliseconds) : nil
    }

    /// `count` times this duration.
    public func times(_ count: Int) -> ISODuration {
        ISODuration(months: months * count, milliseconds: milliseconds * Int64(count))
    }

    /// `date` moved by this duration: first the calendar months (day clamped to the month), then the
    /// fixed part.
    public func added(to date: Date) -> Date {
        var moved = date
        if months != 0 { moved = CivilCalendar.adding(months: months, to: moved) }
        return Date(millisecondsSince1970: moved.millisecondsSince1970 + milliseconds)
    }

    /// The text it was read from.
    public var description: String { text }

    private static func canonicalText(months: Int, milliseconds: Int64) -> String {
        if months == 0 && milliseconds == 0 { return "PT0S" }
        let negative = months < 0 || (months == 0 && milliseconds < 0)
        let monthCount = abs(months)
        var millis = abs(milliseconds)
        var text = negative ? "-P" : "P"
        if monthCount >= 12 { text += "\(monthCount / 12)Y" }
        if monthCount % 12 != 0 { text += "\(monthCount % 12)M" }
        let days = millis / CivilCalendar.millisecondsPerDay
        millis %= CivilCalendar.millisecondsPerDay
        if days > 0 { text += "\(days)D" }
        if millis > 0 {
            text += "T"
            if millis >= 3_600_000 { text += "\(millis / 3_600_000)H" }
            millis %= 3_600_000
            if millis >= 60_000 { text += "\(millis / 60_000)M" }
            millis %= 60_000
            if millis > 0 {
                text +=
                    millis % 1000 == 0
                    ? "\(millis / 1000)S" : "\(millis / 1000).\(String(format: "%03lld", millis % 1000))S"
            }
        }
        return text
    }
}
