import Foundation

/// The proleptic Gregorian calendar in UTC over milliseconds since 1970-01-01T00:00:00Z: the one home of
/// the calendar arithmetic the RFC 3339 parser and writer, the canonical snapshot writer and ISO 8601
/// durations share. Written out rather than Foundation's `Calendar`, whose behaviour at month ends differs
/// between platforms' implementations.
package enum CivilCalendar {
    /// Milliseconds in a day (UTC has no leap seconds here, as in every format read).
    package static let millisecondsPerDay: Int64 = 86_400_000

    /// The number of days of `month` (1…12) in `year`.
    package static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Days from civil and back: the algorithms of C. Neri and L. Schneider (2022), in unsigned arithmetic from
    // a March 1 before every day `Int64` milliseconds can name (2^20 eras of 400 years before year 0).

    /// The day `year`-`month`-`day` as days since 1970-01-01 (traps for years before -419,430,400).
    @inline(__always) package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let january = month <= 2
        let shiftedYear = UInt64(year + (400 << 20)) - (january ? 1 : 0)
        let century = shiftedYear / 100
        let dayOfYearStart = 1461 * shiftedYear / 4 - century + century / 4
        let dayOfMonthStart = (979 * UInt64(january ? month + 12 : month) - 2919) / 32
        return Int64(dayOfYearStart + dayOfMonthStart) + day - 1 - (719_468 + (146_097 << 20))
    }

    /// The calendar date `days` after 1970-01-01.
    @inlinable @inline(__always) package static func civilDate(fromDaysSince1970 days: Int64) -> (
        year: Int64, month: Int64, day: Int64
    ) {
        let quarterDays = 4 * UInt64(days + 719_468 + (146_097 << 20)) + 3
        let century = quarterDays / 146_097
        let yearsAndDays = 2_939_745 * ((quarterDays % 146_097) | 3)
        let dayOfYear = (yearsAndDays & 0xFFFF_FFFF) / 11_758_980
        let monthAndDay = 2141 * dayOfYear + 197_913
        let january: UInt64 = dayOfYear >= 306 ? 1 : 0
        let year = Int64(100 * century + (yearsAndDays >> 32) + january) - (400 << 20)
        return (year, Int64((monthAndDay >> 16) - 12 * january), Int64((monthAndDay & 0xFFFF) / 2141 + 1))
    }

    /// The calendar date and the millisecond of the day of an instant in milliseconds since 1970.
    @inlinable @inline(__always) package static func components(ofMilliseconds milliseconds: Int64) -> (
        year: Int64, month: Int64, day: Int64, millisecondOfDay: Int64
    ) {
        let days = milliseconds / millisecondsPerDay - (milliseconds % millisecondsPerDay < 0 ? 1 : 0)
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        // Exact although `days * millisecondsPerDay` can overflow: the true remainder is in 0..<millisecondsPerDay.
        return (year, month, day, milliseconds &- days &* millisecondsPerDay)
    }

    /// `date` plus `months` calendar months; the day is clamped to the target month's length and the time
    /// of day is kept.
    package static func adding(months: Int, to date: Date) -> Date {
        let (year, month, day, timeOfDay) = components(ofMilliseconds: date.millisecondsSince1970)
        let monthIndex = year * 12 + (month - 1) + Int64(months)
        let newYear = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let newMonth = monthIndex - newYear * 12 + 1
        let newDay = min(day, daysIn(month: newMonth, year: newYear))
        return Date(
            millisecondsSince1970: daysSince1970(year: newYear, month: newMonth, day: newDay) * millisecondsPerDay
                + timeOfDay)
    }
}
