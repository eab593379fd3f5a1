/// Time elapsed since an arbitrary start that never moves back: how the runtime client measures its
/// fresh window and how long ago the server's time arrived, whatever the device clock does.
public protocol MonotonicClock: Sendable {
    /// The time elapsed since this clock's start; never less than an earlier answer.
    func elapsed() -> Duration
}

/// The system's monotonic clock (`ContinuousClock`), measured from the moment it was created.
public struct SystemMonotonicClock: MonotonicClock {
    private let start: ContinuousClock.Instant

    /// Starts measuring now.
    public init() {
        start = ContinuousClock.now
    }

    /// The time since ``init()``.
    public func elapsed() -> Duration {
        ContinuousClock.now - start
    }
}
