import EntitlementKit
import Foundation

/// A device clock the test sets and moves (forward or back) between steps, shared with the code under test.
public final class MovableWallClock: WallClock, @unchecked Sendable {
    // Read by the code under test on its own tasks, moved by the test between calls.
    private let lock = NSLock()
    private var instant: Date

    /// A clock that reads `instant` until moved.
    public init(_ instant: Date) {
        self.instant = instant
    }

    /// The instant it was last set to.
    public func now() -> Date {
        lock.withLock { instant }
    }

    /// Sets the clock to `newInstant`.
    public func set(_ newInstant: Date) {
        lock.withLock { instant = newInstant }
    }

    /// Moves the clock by `seconds` (negative: back).
    public func move(by seconds: TimeInterval) {
        lock.withLock { instant = instant.addingTimeInterval(seconds) }
    }
}
