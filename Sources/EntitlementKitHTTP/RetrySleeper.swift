/// Waits between retries. Injectable so tests record the waits instead of spending them.
public protocol RetrySleeper: Sendable {
    /// Returns after `duration`, or earlier when the task is cancelled.
    func sleep(for duration: Duration) async
}

/// Waits with `Task.sleep` (a cancelled task stops waiting at once).
public struct TaskSleeper: RetrySleeper {
    /// Creates the sleeper.
    public init() {}

    /// Sleeps for `duration`, ending early on cancellation.
    public func sleep(for duration: Duration) async {
        try? await Task.sleep(for: duration)
    }
}
