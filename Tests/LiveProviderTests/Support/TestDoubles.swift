import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitHTTP
import Foundation
import LoopbackHTTPServer

/// Records the waits between retries instead of spending them.
final class RecordingSleeper: RetrySleeper, @unchecked Sendable {
    // Written from the provider's task, read by the test afterwards.
    private let lock = NSLock()
    private var recorded: [Duration] = []

    func sleep(for duration: Duration) async {
        lock.withLock { recorded.append(duration) }
    }

    var waits: [Duration] { lock.withLock { recorded } }
}

/// Collects every log record at every level.
final class LogRecorder: @unchecked Sendable {
    // Log handlers run on the provider's task; the test reads afterwards.
    private let lock = NSLock()
    private var recorded: [EntitlementLogger.Record] = []

    var logger: EntitlementLogger {
        EntitlementLogger(minimumLevel: .debug) { [self] record in lock.withLock { recorded.append(record) } }
    }

    var records: [EntitlementLogger.Record] { lock.withLock { recorded } }
}

enum TestFixtures {
    /// A recorded vendor response from the fixture catalog.
    static func document(_ provider: String, _ name: String) throws -> String {
        String(
            decoding: try FixtureCatalog.scenario(provider: ProviderID(rawValue: provider), name: name).document(),
            as: UTF8.self)
    }

    /// Options for tests: short timeouts, recorded waits, a small size cap.
    static func options(
        attempts: Int = 3, timeout: Duration = .seconds(5), maximumBytes: Int = 64 * 1024,
        sleeper: RecordingSleeper
    ) -> HTTPConnectionOptions {
        HTTPConnectionOptions(
            requestTimeout: timeout,
            retryPolicy: HTTPRetryPolicy(
                maximumAttempts: attempts, initialBackoff: .milliseconds(400), maximumBackoff: .seconds(4),
                maximumRetryAfter: .seconds(10)),
            maximumResponseBytes: maximumBytes, sleeper: sleeper)
    }
}

extension LoopbackHTTPServer.Reply {
    /// A RevenueCat-style error body.
    static func revenueCatError(_ status: Int, code: Int, message: String) -> Self {
        .json(status, #"{"code": \#(code), "message": "\#(message)"}"#)
    }
}
