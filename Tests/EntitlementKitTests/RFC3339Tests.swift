import EntitlementKit
import Foundation
import Testing

@Suite("RFC 3339 dates", .timeLimit(.minutes(5)))
struct RFC3339Tests {
    @Test(
        "refuses what is not an internet date-time",
        arguments: [
            "next tuesday", "", "2025-06-01", "2025-06-01T12:00:00", "2025-06-01 12:00:00Z", "2025-02-30T00:00:00Z",
            "2025-13-01T00:00:00Z", "2025-06-01T24:00:00Z", "2025-06-01T12:60:00Z", "2025-06-01T12:00:60Z",
            "2025-06-01T12:00:00.Z", "2025-06-01T12:00:00+25:00", "2025-06-01T12:00:00Zjunk", "1700000000",
            "0000-01-01T00:00:00Z",
            "2023-02-29T00:00:00Z", "+2025-06-01T12:00:00Z", "9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00",
        ])
    func refusals(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test("accepts the forms vendors send")
    func acceptances() {
        let reference = Date(timeIntervalSince1970: 1_748_779_200)  // 2025-06-01T12:00:00Z
        for text in [
            "2025-06-01T12:00:00Z", "2025-06-01T12:00:00.000Z", "2025-06-01t12:00:00z", "2025-06-01T13:00:00+01:00",
            "2025-06-01T13:00:00+0100",
        ] {
            #expect(RFC3339.date(from: text) == reference, "\(text)")
        }
        #expect(RFC3339.date(from: "2000-02-29T00:00:00Z") != nil)
        #expect(RFC3339.date(from: "9999-12-31T23:59:59.999Z").map(RFC3339.string(from:)) == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339.date(from: "0001-01-01T00:00:00Z").map(RFC3339.string(from:)) == "0001-01-01T00:00:00Z")
    }

    @Test(
        "February 29 exists in years divisible by 4, except centuries not divisible by 400",
        arguments: [
            ("1900-02-29T00:00:00Z", nil),
            ("2100-02-29T00:00:00Z", nil),
            ("2200-02-29T12:00:00+02:00", nil),
            ("2023-02-29T00:00:00Z", nil),
            ("2000-02-29T00:00:00Z", 951_782_400),
            ("2400-02-29T00:00:00Z", 13_574_563_200),
            ("2024-02-29T00:00:00Z", 1_709_164_800),
            ("1900-03-01T00:00:00Z", -2_203_891_200),
            ("2100-03-01T00:00:00Z", 4_107_542_400),
        ] as [(String, Int64?)])
    func leapDays(text: String, secondsSince1970: Int64?) {
        #expect(RFC3339.date(from: text) == secondsSince1970.map { Date(timeIntervalSince1970: TimeInterval($0)) })
    }

    @Test("formatting matches Foundation's ISO 8601 output for whole seconds")
    func agreesWithFoundation() {
        for seconds in stride(from: -2_000_000_000.0, through: 4_000_000_000.0, by: 123_456_789.0) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RFC3339.string(from: date) == date.formatted(.iso8601))
        }
    }
}
