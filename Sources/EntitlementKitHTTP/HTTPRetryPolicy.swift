/// How often and how patiently a live provider retries a request that failed for a reason that may pass:
/// a connection error or timeout, an HTTP 5xx, an HTTP 429. Nothing else is retried (a 401 stays a 401).
///
/// The wait before retry *n* (1 = the first retry) is drawn uniformly from the upper half of
/// `initialBackoff × 2^(n−1)`, capped at `maximumBackoff` ("equal jitter": clients that failed together do
/// not come back together). A `Retry-After` header on a 429 or 5xx replaces that wait when it is at most
/// `maximumRetryAfter`; a longer one ends the retries at once (waiting less than the server asked is
/// pointless, waiting longer would hang the app).
public struct HTTPRetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included: 1 means no retry. Clamped to 1…10.
    public var maximumAttempts: Int
    /// The base wait before the first retry.
    public var initialBackoff: Duration
    /// The longest base wait.
    public var maximumBackoff: Duration
    /// The longest `Retry-After` honoured.
    public var maximumRetryAfter: Duration

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 3, initialBackoff: Duration = .milliseconds(500), maximumBackoff: Duration = .seconds(8),
        maximumRetryAfter: Duration = .seconds(30)
    ) {
        self.maximumAttempts = min(max(maximumAttempts, 1), 10)
        self.initialBackoff = max(initialBackoff, .zero)
        self.maximumBackoff = max(maximumBackoff, .zero)
        self.maximumRetryAfter = max(maximumRetryAfter, .zero)
    }

    /// Three attempts, 0.5 s then 1 s base waits, `Retry-After` up to 30 s.
    public static let standard = HTTPRetryPolicy()
    /// One attempt, no retry.
    public static let never = HTTPRetryPolicy(maximumAttempts: 1)

    /// The wait before retry number `retry` (1 = the first retry), jittered with `generator`.
    package func backoff(beforeRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let base = min(initialBackoff.seconds * Double(1 << exponent), maximumBackoff.seconds)
        guard base > 0 else { return .zero }
        let jittered = base / 2 + Double.random(in: 0...(base / 2), using: &generator)
        return .nanoseconds(Int64(jittered * 1e9))
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
