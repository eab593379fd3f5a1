import Foundation

/// "The server's answer may have changed": what the app feeds ``OwnBackendProvider`` when the server
/// changed a customer without the app asking (a renewal, a refund, a billing problem the stores pushed
/// to it), so every ``EntitlementKit/EntitlementClient`` reading the provider fetches the snapshot again
/// and its `updates()` yields the new answer.
///
/// Call ``send()`` from the app's silent-push handler (the server sends a content-available push after a
/// change) and when the app comes to the foreground (a push can be dropped, and a refund should not wait
/// for the cache to go stale):
///
/// ```swift
/// let changes = OwnBackendChangeSignal()
/// let provider = OwnBackendProvider(configuration: try .init(baseURL: serverURL), changeSignal: changes)
/// // in the silent-push handler, and on every return to the foreground:
/// changes.send()
/// ```
///
/// A signal names no customer: each client refetches its own. Signals sent while a client is fetching
/// are folded into one more fetch.
public final class OwnBackendChangeSignal: Sendable {
    private let listeners = ChangeListeners()

    /// A signal no client listens to yet.
    public init() {}

    /// Tells every client listening that the server's answers may have changed.
    public func send() {
        listeners.yieldToAll()
    }

    /// A new stream of signals for one listener; it stops being fed when the listener cancels it.
    func makeStream() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = listeners.add(continuation)
        continuation.onTermination = { [listeners] _ in listeners.remove(id) }
        return stream
    }
}

/// The continuations of the streams handed out, by number. A lock, not an actor: ``OwnBackendChangeSignal/send()``
/// is called from synchronous handlers and must not wait.
private final class ChangeListeners: @unchecked Sendable {
    // Guards `continuations` and `nextId`.
    private let lock = NSLock()
    private var continuations: [Int: AsyncStream<Void>.Continuation] = [:]
    private var nextId = 0

    func add(_ continuation: AsyncStream<Void>.Continuation) -> Int {
        lock.withLock {
            nextId += 1
            continuations[nextId] = continuation
            return nextId
        }
    }

    func remove(_ id: Int) {
        lock.withLock { _ = continuations.removeValue(forKey: id) }
    }

    func yieldToAll() {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.yield() }
    }
}
