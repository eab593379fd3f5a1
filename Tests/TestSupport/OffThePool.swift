import Foundation

/// Runs blocking work (pipes, `waitUntilExit`, a FIFO's open) on a thread of its own, so Swift Testing's few
/// cooperative threads (as many as cores) are never held: a test blocking them starves every concurrent
/// test, whose loopback servers then outlive their time limits.
public func offThePool<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
        Thread.detachNewThread { continuation.resume(returning: Result { () throws(Failure) -> Value in try body() }) }
    }
    return try result.get()
}
