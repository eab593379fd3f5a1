import EntitlementKit
import Foundation
import TestSupport

/// A monotonic clock the test advances; it cannot go back.
final class ManualMonotonicClock: MonotonicClock, @unchecked Sendable {
    // Guards `current`.
    private let lock = NSLock()
    private var current: Duration = .zero

    func elapsed() -> Duration {
        lock.withLock { current }
    }

    func advance(by duration: Duration) {
        precondition(duration >= .zero, "a monotonic clock cannot go back")
        lock.withLock { current += duration }
    }
}

/// True time, the device clock and the monotonic clock of one simulated device, moved together the way
/// the world moves them: `advance` moves true time, the device clock (keeping its offset) and the
/// monotonic clock; `setDeviceOffset` moves only the device clock.
final class TestTime: @unchecked Sendable {
    // Guards `trueNow` and `deviceOffset`.
    private let lock = NSLock()
    private var trueNow: Date
    private var deviceOffset: TimeInterval = 0
    let device: MovableWallClock
    private(set) var monotonic = ManualMonotonicClock()

    init(start: Date = instant("2025-01-01T00:00:00Z")) {
        trueNow = start
        device = MovableWallClock(start)
    }

    /// The backend's clock.
    var now: Date {
        lock.withLock { trueNow }
    }

    func advance(_ seconds: TimeInterval) {
        let device: Date = lock.withLock {
            trueNow = trueNow.addingTimeInterval(seconds)
            return trueNow.addingTimeInterval(deviceOffset)
        }
        self.device.set(device)
        monotonic.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    func setDeviceOffset(_ seconds: TimeInterval) {
        let device: Date = lock.withLock {
            deviceOffset = seconds
            return trueNow.addingTimeInterval(seconds)
        }
        self.device.set(device)
    }

    /// A relaunch: the monotonic clock of the new process starts again from zero.
    func relaunch() {
        monotonic = ManualMonotonicClock()
    }
}

let minute: TimeInterval = 60
let hour: TimeInterval = 3600
let day: TimeInterval = 86_400
