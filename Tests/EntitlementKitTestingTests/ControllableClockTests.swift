import EntitlementKit
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

@Suite("ControllableClock: a device's wall clock and monotonic clock, moved by the test", .timeLimit(.minutes(5)))
struct ControllableClockTests {
    let start = instant("2025-01-31T00:00:00Z")

    @Test func advancingMovesTheWallClockAndTheElapsedTime() {
        let clock = ControllableClock(start: start)
        clock.advance(by: .seconds(90))
        #expect(clock.now() == start.addingTimeInterval(90))
        #expect(clock.elapsed() == .seconds(90))
        clock.advance(by: ISODuration(months: 1))
        #expect(clock.trueTime == RFC3339.date(from: "2025-02-28T00:01:30Z"))
        #expect(clock.elapsed() == .seconds(90 + 28 * 86_400))
    }

    @Test func anOffsetMovesOnlyWhatTheWallClockReads() {
        let clock = ControllableClock(start: start)
        clock.setOffset(ISODuration("-P10D") ?? ISODuration())
        #expect(clock.now() == RFC3339.date(from: "2025-01-21T00:00:00Z"))
        #expect(clock.elapsed() == .zero)
        clock.advance(by: .seconds(60))
        #expect(clock.now() == RFC3339.date(from: "2025-01-21T00:01:00Z"))
        clock.setOffset(ISODuration())
        #expect(clock.now() == RFC3339.date(from: "2025-01-31T00:01:00Z"))
    }

    @Test func timeNeverGoesBack() {
        let clock = ControllableClock(start: start)
        clock.advance(by: .seconds(-60))
        clock.advance(by: ISODuration("-P1D") ?? ISODuration())
        #expect(clock.trueTime == start)
        #expect(clock.elapsed() == .zero)
    }
}
