import EntitlementKit
import Foundation

/// One simulated phone: its clocks, the backend it talks to, and its persistent storage (kept across
/// relaunches: each `launch` is a new client over the same cache).
struct TestDevice {
    let time: TestTime
    let backend: TestProvider
    let cache: any EntitlementCache

    /// A phone; `pushesChanges`: its backend signals changes (``TestProvider/pushChange()``).
    init(
        cache: any EntitlementCache = InMemoryEntitlementCache(), time: TestTime = TestTime(),
        pushesChanges: Bool = false
    ) {
        self.time = time
        self.backend = TestProvider(time: time, pushesChanges: pushesChanges)
        self.cache = cache
    }

    /// Starts the app: a new client over the device's storage.
    func launch(
        appUserId: String? = nil, freshFor: Duration = .seconds(300), logger: EntitlementLogger = .disabled
    ) async throws(EntitlementClientError) -> EntitlementClient {
        try await EntitlementClient(
            provider: backend, cache: cache, appUserId: appUserId, freshFor: freshFor, deviceClock: time.device,
            monotonicClock: time.monotonic, logger: logger)
    }

    /// Quits the app and starts it again: the monotonic clock restarts.
    func relaunch(appUserId: String? = nil) async throws(EntitlementClientError) -> EntitlementClient {
        time.relaunch()
        return try await launch(appUserId: appUserId)
    }
}

/// Collects log records (thread-safe).
final class LogRecorder: @unchecked Sendable {
    // Guards `records`.
    private let lock = NSLock()
    private var stored: [EntitlementLogger.Record] = []

    var records: [EntitlementLogger.Record] {
        lock.withLock { stored }
    }

    var logger: EntitlementLogger {
        EntitlementLogger(minimumLevel: .debug) { [self] record in lock.withLock { stored.append(record) } }
    }
}
