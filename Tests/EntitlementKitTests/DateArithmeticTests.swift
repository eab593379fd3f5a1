import EntitlementKit
import Foundation
import TestSupport
import Testing

/// The calendar arithmetic and the date readers and writer against slower oracles: H. Hinnant's civil-date
/// algorithms (what `CivilCalendar` computed before Neri and Schneider's), `Double.rounded()`, and the general
/// RFC 3339 parser for the fixed layouts read word by word.
@Suite("Date arithmetic against its oracles", .timeLimit(.minutes(5)))
struct DateArithmeticTests {
    /// Days since 1970 of every day of the years 0001…9999.
    static let supportedDays: ClosedRange<Int64> = -719_162...2_932_896

    /// Every day `Int64` milliseconds can name, rounded down.
    static let representableDays: ClosedRange<Int64> = Int64.min / 86_400_000 - 1...Int64.max / 86_400_000

    @Test("civil dates agree with Hinnant's on every day of years 0001…9999, and back")
    func everySupportedDay() {
        var mismatches: [Int64] = []
        for days in Self.supportedDays {
            let date = CivilCalendar.civilDate(fromDaysSince1970: days)
            if date != Self.hinnantCivilDate(days)
                || CivilCalendar.daysSince1970(
                    year: date.year, month: date.month, day: date.day) != days
            {
                mismatches.append(days)
                if mismatches.count > 5 { break }
            }
        }
        #expect(mismatches.isEmpty)
        #expect(CivilCalendar.civilDate(fromDaysSince1970: Self.supportedDays.lowerBound) == (1, 1, 1))
        #expect(CivilCalendar.civilDate(fromDaysSince1970: Self.supportedDays.upperBound) == (9999, 12, 31))
    }

    @Test("civil dates agree with Hinnant's on days far before and after, to the ends of Int64 milliseconds")
    func everyRepresentableDay() {
        var random = SplitMix64(seed: 35)
        let ends = [Self.representableDays.lowerBound, Self.representableDays.upperBound, -1, 0, -719_163, -719_468]
        var mismatches: [Int64] = []
        for index in 0..<200_000 {
            let days = index < ends.count ? ends[index] : Int64.random(in: Self.representableDays, using: &random)
            let date = CivilCalendar.civilDate(fromDaysSince1970: days)
            if date != Self.hinnantCivilDate(days)
                || CivilCalendar.daysSince1970(year: date.year, month: date.month, day: date.day) != days
                || Self.hinnantDays(year: date.year, month: date.month, day: date.day) != days
            {
                mismatches.append(days)
            }
        }
        #expect(mismatches.isEmpty)
        // Year 0 and before, leap years by the same rule (-4, 0 leap; -100 not).
        #expect(CivilCalendar.daysSince1970(year: 0, month: 2, day: 29) == Self.hinnantDays(year: 0, month: 2, day: 29))
        #expect(CivilCalendar.civilDate(fromDaysSince1970: -719_528) == (0, 1, 1))
    }

    @Test("an instant's date and time of day: negative times before 1970, and the ends of Int64")
    func components() {
        var random = SplitMix64(seed: 1970)
        let ends: [Int64] = [.min, .max, -1, 0, -86_400_000, -86_400_001, 86_399_999, -62_135_596_800_000]
        for index in 0..<50_000 {
            let milliseconds =
                index < ends.count ? ends[index] : Int64(bitPattern: random.next()) >> (random.next() % 40)
            let (year, month, day, timeOfDay) = CivilCalendar.components(ofMilliseconds: milliseconds)
            // The floored division as `components` wrote it before.
            var days = milliseconds / 86_400_000
            var remainder = milliseconds % 86_400_000
            if remainder < 0 {
                remainder += 86_400_000
                days -= 1
            }
            #expect(Self.hinnantCivilDate(days) == (year, month, day) && timeOfDay == remainder, "\(milliseconds)")
        }
        #expect(CivilCalendar.components(ofMilliseconds: -1) == (1969, 12, 31, 86_399_999))
    }

    @Test("milliseconds are rounded to the nearest, halves away from zero, saturating at the ends of Int64")
    func millisecondRounding() {
        var random = SplitMix64(seed: 1000)
        var intervals: [Double] = [.nan, .infinity, -.infinity, 0x1p63 / 1000, -0x1p63 / 1000, 1e300, -1e300, 0.0005]
        for _ in 0..<50_000 {
            let milliseconds = Double(Int64(bitPattern: random.next()) >> (random.next() % 64))
            intervals.append(milliseconds / 1000)
            intervals.append((milliseconds + 0.5) / 1000)
            intervals.append(Double(bitPattern: random.next()))
        }
        for interval in intervals {
            let date = Date(timeIntervalSince1970: interval)
            let rounded = (date.timeIntervalSince1970 * 1000).rounded()
            let expected: Int64 =
                rounded.isNaN ? 0 : rounded >= 0x1p63 ? .max : rounded < -0x1p63 ? .min : Int64(rounded)
            #expect(date.millisecondsSince1970 == expected, "\(interval)")
        }
        #expect(Date(timeIntervalSince1970: -0.0015).millisecondsSince1970 == -2)
        #expect(Date(timeIntervalSince1970: 0.0025).millisecondsSince1970 == 3)
    }

    @Test("the fixed layouts read word by word exactly as the general parser reads them, byte by byte changed")
    func fixedLayouts() {
        var random = SplitMix64(seed: 3339)
        var texts = [
            "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "2000-02-29T12:00:00Z", "1900-02-29T00:00:00Z",
            "2100-02-29T00:00:00.500Z", "2400-02-29T23:59:59Z", "1999-12-31T23:59:59.999Z", "1969-12-31T23:59:59Z",
            "2024-04-31T00:00:00Z", "2025-06-01T12:00:00.001Z",
        ]
        for _ in 0..<60 {
            let milliseconds = Int64.random(in: RFC3339.supportedMilliseconds, using: &random)
            let wholeSeconds = random.next() % 2 == 0
            texts.append(
                RFC3339.string(
                    from: Date(millisecondsSince1970: wholeSeconds ? milliseconds / 1000 * 1000 : milliseconds)))
        }
        var mismatches: [String] = []
        func check(_ bytes: [UInt8]) {
            var general = bytes
            // A lower-case `t` keeps the general parser from trying the fixed layout first.
            general[10] = bytes[10] == UInt8(ascii: "T") ? UInt8(ascii: "t") : bytes[10]
            let expected =
                bytes[10] == UInt8(ascii: "T") && bytes.last == UInt8(ascii: "Z")
                ? general.withUnsafeBufferPointer { RFC3339.milliseconds(utf8: $0) } : nil
            if bytes.withUnsafeBufferPointer({ RFC3339.milliseconds(fixedLayout: $0) }) != expected {
                mismatches.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        for text in texts {
            let bytes = Array(text.utf8)
            check(bytes)
            for position in bytes.indices {
                for byte in 0...UInt8.max {
                    var changed = bytes
                    changed[position] = byte
                    check(changed)
                }
            }
            for _ in 0..<2000 {
                var changed = bytes
                for _ in 0..<3 {
                    changed[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
                check(changed)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(RFC3339.milliseconds(fixedLayout: UnsafeBufferPointer(start: nil, count: 0)) == nil)
    }

    @Test("the canonical writer writes every date as the general formatter does")
    func canonicalWriter() throws {
        var random = SplitMix64(seed: 26)
        var snapshot = goldenSnapshot()
        var instants = [RFC3339.supportedMilliseconds.lowerBound, RFC3339.supportedMilliseconds.upperBound, -1]
        for _ in 0..<2000 { instants.append(Int64.random(in: RFC3339.supportedMilliseconds, using: &random)) }
        for (index, milliseconds) in instants.enumerated() {
            let date = Date(millisecondsSince1970: index % 2 == 0 ? milliseconds : milliseconds / 1000 * 1000)
            snapshot.requestDate = date
            let written = snapshot.canonicalJSON(compact: true)
            #expect(written.contains(#""requestDate":"\#(RFC3339.string(from: date))""#), "\(milliseconds)")
        }
    }

    @Test("a count of seconds written as an integer is the instant its fraction-written twin is")
    func epochSecondsAsIntegers() throws {
        var random = SplitMix64(seed: 86_400)
        var counts: [Int64] = [253_402_300_799, 253_402_300_800, -62_135_596_800, -62_135_596_801, 0, -1]
        counts += [.max, .min + 1, 9_223_372_036_854_775, 9_007_199_254_740_993]
        for _ in 0..<2000 { counts.append(Int64(bitPattern: random.next()) >> (random.next() % 64)) }
        let integers = try JSONNode(parsing: Data("[\(counts.map(String.init).joined(separator: ","))]".utf8))
            .elements()
        let fractions = try JSONNode(parsing: Data("[\(counts.map { "\($0).0" }.joined(separator: ","))]".utf8))
            .elements()
        for (index, count) in counts.enumerated() {
            #expect(try integers[index].integer() == count)
            let fromInteger = Result { () throws(DocumentError) -> Date in try integers[index].dateFromEpochSeconds() }
            let fromFraction = Result { () throws(DocumentError) -> Date in try fractions[index].dateFromEpochSeconds()
            }
            switch (fromInteger, fromFraction) {
            case (.success(let one), .success(let other)): #expect(one == other, "\(count)")
            case (.failure(let one), .failure(let other)):
                #expect(one.kind == other.kind && one.path == other.path && one.reason == other.reason)
            default: Issue.record("\(count): \(fromInteger) but \(fromFraction)")
            }
        }
    }

    // MARK: Oracles

    /// H. Hinnant's `civil_from_days`.
    static func hinnantCivilDate(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    /// H. Hinnant's `days_from_civil`.
    static func hinnantDays(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
