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

    // Days from civil and back: the proleptic Gregorian algorithms of H. Hinnant's date library notes.

    /// The day `year`-`month`-`day` as days since 1970-01-01.
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date `days` after 1970-01-01.
    package static func civilDate(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The calendar date and the millisecond of the day of an instant in milliseconds since 1970.
    package static func components(ofMilliseconds milliseconds: Int64) -> (
        year: Int64, month: Int64, day: Int64, millisecondOfDay: Int64
    ) {
        var days = milliseconds / millisecondsPerDay
        var remainder = milliseconds % millisecondsPerDay
        if remainder < 0 {
            remainder += millisecondsPerDay
            days -= 1
        }
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        return (year, month, day, remainder)
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
