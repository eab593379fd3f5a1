import EntitlementKit
import Foundation

/// A clock a test moves by hand: a device's wall clock and its monotonic clock in one.
///
/// ``advance(by:)-(Duration)`` moves time itself (the wall reading and the elapsed time alike);
/// ``setOffset(_:)`` changes only what the wall clock reads — true time plus an offset, the way a user
/// sets a phone's clock wrong — and never the elapsed time, which cannot go back. Pass the same instance
/// as `deviceClock` and `monotonicClock` of an `EntitlementClient`:
///
/// ```swift
/// let clock = ControllableClock(start: RFC3339.date(from: "2025-01-01T00:00:00Z") ?? .now)
/// let client = try await EntitlementClient(
///     provider: backend.provider(), cache: InMemoryEntitlementCache(), deviceClock: clock, monotonicClock: clock)
/// clock.advance(by: .seconds(3600))
/// if let tenDaysBack = ISODuration("-P10D") {   // ISODuration parses text, so it is optional
///     clock.setOffset(tenDaysBack)               // the user turns the clock back ten days
/// }
/// ```
///
/// (`backend` is a ``SimulatedBackend``.)
///
/// A class behind a lock, not an actor, because `WallClock.now()` and `MonotonicClock.elapsed()` are
/// synchronous requirements.
public final class ControllableClock: WallClock, MonotonicClock, @unchecked Sendable {
    private let lock = NSLock()
    private var trueNow: Date
    private var elapsedMilliseconds: Int64 = 0
    private var offset: ISODuration

    /// A clock reading `start` (plus `offset` on the wall) with no time elapsed.
    public init(start: Date, offset: ISODuration = ISODuration()) {
        trueNow = start
        self.offset = offset
    }

    /// What the wall clock reads: true time plus the offset (calendar months clamped).
    public func now() -> Date {
        lock.withLock { offset.added(to: trueNow) }
    }

    /// Time elapsed since the clock was made; only ``advance(by:)-(Duration)`` moves it.
    public func elapsed() -> Duration {
        lock.withLock { .milliseconds(elapsedMilliseconds) }
    }

    /// True time (the wall reading without the offset).
    public var trueTime: Date {
        lock.withLock { trueNow }
    }

    /// Moves time forward by `duration` (a negative duration is ignored: time does not go back).
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0 else { return }
        lock.withLock {
            trueNow = Date(millisecondsSince1970: trueNow.millisecondsSince1970 + milliseconds)
            elapsedMilliseconds += milliseconds
        }
    }

    /// Moves time forward by an ISO 8601 duration (`P1M` is one calendar month from true time).
    public func advance(by duration: ISODuration) {
        lock.withLock {
            let moved = duration.added(to: trueNow)
            let milliseconds = moved.millisecondsSince1970 - trueNow.millisecondsSince1970
            guard milliseconds > 0 else { return }
            trueNow = moved
            elapsedMilliseconds += milliseconds
        }
    }

    /// Sets what the wall clock reads to true time plus `offset` (`PT0S` corrects it); elapsed time
    /// is unaffected.
    public func setOffset(_ offset: ISODuration) {
        lock.withLock { self.offset = offset }
    }
}
