/// How a live provider talks HTTP: the timeout of one attempt, the retry policy, the largest response it
/// reads, and how it waits between retries.
public struct HTTPConnectionOptions: Sendable {
    /// The longest one attempt may take, connection and whole response included; past it the attempt is
    /// a timeout (retried, then ``EntitlementKit/EntitlementClientError/Code/offline``). Default 15 s.
    public var requestTimeout: Duration
    /// Retries of connection errors, timeouts, 5xx and 429.
    public var retryPolicy: HTTPRetryPolicy
    /// The largest response body read; a larger one is refused as
    /// ``EntitlementKit/EntitlementClientError/Code/badResponse`` without reading the rest. Default 4 MiB.
    public var maximumResponseBytes: Int
    /// Waits between retries.
    public var sleeper: any RetrySleeper

    /// Creates options.
    public init(
        requestTimeout: Duration = .seconds(15), retryPolicy: HTTPRetryPolicy = .standard,
        maximumResponseBytes: Int = 4 << 20, sleeper: any RetrySleeper = TaskSleeper()
    ) {
        self.requestTimeout = max(requestTimeout, .milliseconds(1))
        self.retryPolicy = retryPolicy
        self.maximumResponseBytes = max(maximumResponseBytes, 1)
        self.sleeper = sleeper
    }
}

extension HTTPConnectionOptions: CustomStringConvertible {
    /// The timeout, attempts and size cap.
    public var description: String {
        "HTTPConnectionOptions(requestTimeout: \(requestTimeout), attempts: \(retryPolicy.maximumAttempts), maximumResponseBytes: \(maximumResponseBytes))"
    }
}
