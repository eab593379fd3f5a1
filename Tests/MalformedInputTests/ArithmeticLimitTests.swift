import EntitlementKit
import EntitlementKitMigration
import Foundation
import Testing

/// Conversions that used to trap (or could) on extreme values now saturate or refuse. Each test would
/// crash the test process without its fix.
@Suite(.timeLimit(.minutes(5))) struct ArithmeticLimitTests {
    static let extremes: [(seconds: Double, milliseconds: Int64)] = [
        (.infinity, .max), (-.infinity, .min), (1e300, .max), (-1e300, .min), (9.3e15, .max), (-9.3e15, .min),
        (.nan, 0), (1_748_779_200.123, 1_748_779_200_123),
    ]

    @Test(arguments: extremes)
    func millisecondsOfAnyDateSaturateInsteadOfTrapping(seconds: Double, milliseconds: Int64) {
        #expect(Date(timeIntervalSince1970: seconds).millisecondsSince1970 == milliseconds)
    }

    @Test func theCanonicalDateFormatWritesAnyDate() {
        // Out of the years a document can hold, so not readable back — but no crash.
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: .infinity)) == "292278994-08-17T07:12:55.807Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -.infinity)).hasSuffix("T16:47:04.192Z"))
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }

    @Test func theLargestLineLimitReadsLines() throws {
        var reader = JSONLinesReader(data: Data("{}\n[]\n".utf8), maximumLineLength: .max)
        #expect(try reader.next() == JSONLine(number: 1, content: .text(Data("{}".utf8))))
        #expect(try reader.next() == JSONLine(number: 2, content: .text(Data("[]".utf8))))
        #expect(try reader.next() == nil)
    }
}
