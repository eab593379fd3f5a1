import EntitlementKit
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

@Suite(
    "ISO 8601 durations: calendar months in UTC with the day clamped, fixed days and times, negatives",
    .timeLimit(.minutes(5)))
struct ISODurationTests {
    @Test(arguments: [
        ("P1M", "2025-01-31T10:00:00Z", "2025-02-28T10:00:00Z"),
        ("P2M", "2025-01-31T10:00:00Z", "2025-03-31T10:00:00Z"),
        ("P1M", "2024-01-31T00:00:00Z", "2024-02-29T00:00:00Z"),
        ("P1Y", "2024-02-29T12:00:00Z", "2025-02-28T12:00:00Z"),
        ("-P1M", "2025-03-31T00:00:00Z", "2025-02-28T00:00:00Z"),
        ("P1M", "2025-12-15T00:00:00Z", "2026-01-15T00:00:00Z"),
        ("-P1M", "2025-01-15T00:00:00Z", "2024-12-15T00:00:00Z"),
        ("P7D", "2025-02-25T00:00:00Z", "2025-03-04T00:00:00Z"),
        ("P2W", "2025-01-01T00:00:00Z", "2025-01-15T00:00:00Z"),
        ("-P10D", "2025-01-05T00:00:00Z", "2024-12-26T00:00:00Z"),
        ("PT5M", "2025-01-01T23:58:00Z", "2025-01-02T00:03:00Z"),
        ("P1Y2M3DT4H5M6S", "2025-01-01T00:00:00Z", "2026-03-04T04:05:06Z"),
        ("PT0.5S", "2025-01-01T00:00:00Z", "2025-01-01T00:00:00.500Z"),
        ("P1MT1S", "2025-01-31T00:00:00Z", "2025-02-28T00:00:01Z"),
    ])
    func addsToADate(duration: String, start: String, end: String) throws {
        let parsed = try #require(ISODuration(duration))
        #expect(parsed.added(to: instant(start)) == instant(end))
        #expect(parsed.description == duration)
    }

    @Test func monthlyRenewalsComeFromTheStartNotThePreviousRenewal() {
        let start = instant("2025-01-31T10:00:00Z")
        let month = ISODuration(months: 1)
        #expect(month.times(1).added(to: start) == instant("2025-02-28T10:00:00Z"))
        #expect(month.times(2).added(to: start) == instant("2025-03-31T10:00:00Z"))
        #expect(month.times(13).added(to: start) == instant("2026-02-28T10:00:00Z"))
    }

    @Test(arguments: [
        "", "P", "PT", "1D", "P1H", "PT1D", "P1.5D", "P1M1Y", "P1DT", "PT1S1M", "P-1D", "P1D2D", "p1d", "P1,5D",
    ])
    func refusesText(_ text: String) {
        #expect(ISODuration(text) == nil)
    }

    @Test func knowsItsSignAndWhetherItHasMonths() throws {
        let back = try #require(ISODuration("-P10D"))
        #expect(back.isNegative)
        #expect(back.fixedDuration == .seconds(-864_000))
        let month = try #require(ISODuration("P1M"))
        #expect(month.hasCalendarMonths)
        #expect(month.fixedDuration == nil)
        #expect(try #require(ISODuration("PT0S")).isZero)
        #expect(ISODuration(months: 14, milliseconds: 90_061_500).description == "P1Y2M1DT1H1M1.500S")
    }
}
