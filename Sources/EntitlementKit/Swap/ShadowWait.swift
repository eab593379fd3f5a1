import Foundation

/// Waits for the shadow's answer, but no longer than a timeout: whichever comes first wins.
///
/// Neither side is awaited inside a task group, because a group waits for all its children before it
/// returns — a shadow that ignores cancellation would then hold up the served answer.
enum ShadowWait {
    /// The task's value, or `nil` when `timeout` passed on `clock` first (the task is then cancelled, unless
    /// `cancellingLate` is false: a write the shadow must still hear of goes on).
    static func first<Value: Sendable>(
        of task: Task<Value, Never>, within timeout: Duration, on clock: any Clock<Duration>,
        cancellingLate: Bool = true
    ) async -> Value? {
        let race = Race<Value>()
        return await withCheckedContinuation { continuation in
            race.start(continuation)
            let timer = Task {
                try? await clock.sleep(for: timeout)
                if race.finish(nil), cancellingLate { task.cancel() }
            }
            Task {
                let value = await task.value
                if race.finish(value) { timer.cancel() }
            }
        }
    }

    /// The first `finish` resumes the waiter; later ones are ignored.
    private final class Race<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Value?, Never>?

        func start(_ continuation: CheckedContinuation<Value?, Never>) {
            lock.withLock { self.continuation = continuation }
        }

        /// Whether this call won the race.
        func finish(_ value: Value?) -> Bool {
            guard
                let continuation = lock.withLock({ () -> CheckedContinuation<Value?, Never>? in
                    defer { self.continuation = nil }
                    return self.continuation
                })
            else { return false }
            continuation.resume(returning: value)
            return true
        }
    }
}
