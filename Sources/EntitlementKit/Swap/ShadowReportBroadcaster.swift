import Foundation

/// Hands every report to each stream made so far. Each stream keeps at most
/// ``MigratingProvider/reportBufferLimit`` reports a reader has not taken yet (the newest): a report nobody
/// reads must not make an app's memory grow for the weeks a shadow runs.
final class ShadowReportBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [Int: AsyncStream<ShadowReport>.Continuation] = [:]
    private var nextId = 0
    private let bufferLimit: Int

    init(bufferLimit: Int) {
        self.bufferLimit = bufferLimit
    }

    func makeStream() -> AsyncStream<ShadowReport> {
        let (stream, continuation) = AsyncStream<ShadowReport>.makeStream(
            bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = lock.withLock {
            nextId += 1
            continuations[nextId] = continuation
            return nextId
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ report: ShadowReport) {
        let targets = lock.withLock { Array(continuations.values) }
        for continuation in targets { continuation.yield(report) }
    }

    func finish() {
        let targets = lock.withLock { Array(continuations.values) }
        for continuation in targets { continuation.finish() }
    }
}
