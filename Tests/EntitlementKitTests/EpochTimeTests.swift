import EntitlementKit
import Foundation
import TestSupport
import Testing

/// The one plausibility rule for counts since 1970, and the one civil calendar.
@Suite("Epoch counts and the civil calendar", .timeLimit(.minutes(5)))
struct EpochTimeTests {
    @Test("a count is read only within the years 0001…9999")
    func plausibleRange() {
        #expect(
            EpochTime.date(millisecondsSince1970: Int64(253_402_300_799_999)) == instant("9999-12-31T23:59:59.999Z"))
        #expect(EpochTime.date(millisecondsSince1970: Int64(253_402_300_800_000)) == nil)
        #expect(EpochTime.date(millisecondsSince1970: Int64(-62_135_596_800_000)) == instant("0001-01-01T00:00:00Z"))
        #expect(EpochTime.date(millisecondsSince1970: Int64(-62_135_596_800_001)) == nil)
        #expect(EpochTime.date(secondsSince1970: Int64(253_402_300_799)) == instant("9999-12-31T23:59:59Z"))
        #expect(EpochTime.date(secondsSince1970: Int64(253_402_300_800)) == nil)
        #expect(EpochTime.date(secondsSince1970: Int64.max) == nil, "no overflow trap")
        #expect(EpochTime.date(millisecondsSince1970: Double.nan) == nil)
        #expect(EpochTime.date(secondsSince1970: 1_748_779_200.1239) == instant("2025-06-01T12:00:00.123Z"))
    }

    @Test("whole seconds are truncated toward the past")
    func wholeSeconds() {
        #expect(instant("2025-06-01T12:00:00.999Z").wholeSecondsSince1970 == 1_748_779_200)
        #expect(Date(millisecondsSince1970: -1).wholeSecondsSince1970 == -1)
    }

    @Test("months are added on the civil calendar, clamped to the month's length")
    func civilMonths() {
        #expect(CivilCalendar.adding(months: 1, to: instant("2024-01-31T10:00:00Z")) == instant("2024-02-29T10:00:00Z"))
        #expect(
            CivilCalendar.adding(months: -13, to: instant("2025-03-31T00:00:00Z")) == instant("2024-02-29T00:00:00Z"))
        #expect(CivilCalendar.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilCalendar.daysIn(month: 2, year: 2000) == 29)
    }
}
