import Foundation

/// Runs async work to completion from a synchronous command (the tool's commands are synchronous; the
/// providers and the scenario runner are async).
enum AsyncWait {
    private final class Box<Value: Sendable>: @unchecked Sendable {
        // Written once by the task before it signals, read once after the wait.
        var value: Value?
    }

    /// `work`'s value, waited for on a task of its own.
    static func value<Value: Sendable>(of work: @escaping @Sendable () async -> Value) -> Value {
        let box = Box<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { preconditionFailure("a finished task left no value") }
        return value
    }
}
