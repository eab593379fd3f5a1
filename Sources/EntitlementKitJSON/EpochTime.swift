import Foundation

/// Counts of seconds and milliseconds since 1970-01-01T00:00:00Z, as the stores and vendors send them: the
/// one home of their plausibility rule. A count is read only within the years a canonical date can write
/// (``RFC3339/supportedYears``), so a value sent in the wrong unit never becomes an expiry thousands of
/// years away. Which encodings a vendor allows (a JSON string of digits, a fraction, a sign, `0` for "not
/// said") stays with its reader; the range and the conversion are here.
package enum EpochTime {
    /// The instant `milliseconds` after 1970, or `nil` outside 0001-01-01 … 9999-12-31T23:59:59.999Z.
    package static func date(millisecondsSince1970 milliseconds: Int64) -> Date? {
        RFC3339.supportedMilliseconds.contains(milliseconds) ? Date(millisecondsSince1970: milliseconds) : nil
    }

    /// The instant `milliseconds` after 1970, a fraction truncated to the millisecond below, or `nil`
    /// outside the supported years (and for a NaN or an infinity).
    package static func date(millisecondsSince1970 milliseconds: Double) -> Date? {
        guard milliseconds.isFinite, abs(milliseconds) < 9.0e15 else { return nil }
        return date(millisecondsSince1970: Int64(milliseconds.rounded(.down)))
    }

    /// The instant `seconds` after 1970, or `nil` outside the supported years.
    package static func date(secondsSince1970 seconds: Int64) -> Date? {
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? nil : date(millisecondsSince1970: milliseconds)
    }

    /// The instant `seconds` after 1970, fractions kept to the millisecond (truncated), or `nil` outside the
    /// supported years.
    package static func date(secondsSince1970 seconds: Double) -> Date? {
        date(millisecondsSince1970: seconds * 1000)
    }
}

extension Date {
    /// Whole seconds since 1970-01-01T00:00:00Z, a fraction truncated toward the past: how the formats
    /// that count seconds write an instant.
    package var wholeSecondsSince1970: Int64 {
        let milliseconds = millisecondsSince1970
        return milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }
}
