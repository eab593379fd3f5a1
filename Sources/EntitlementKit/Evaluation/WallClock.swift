import Foundation

/// A source of "now".
///
/// The evaluation rules never read the system clock themselves: an instant is passed in, or taken from a
/// `WallClock` the caller chose, so tests and replays are exact.
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The system's clock.
public struct SystemClock: WallClock {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }
}

/// A clock stopped at one instant, for tests, replays and `--at`.
public struct FixedClock: WallClock {
    /// The instant it always answers.
    public var instant: Date

    /// Creates a clock stopped at `instant`.
    public init(_ instant: Date) {
        self.instant = instant
    }

    /// ``instant``.
    public func now() -> Date { instant }
}
