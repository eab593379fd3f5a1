import EntitlementKit
import Foundation

/// Sends a provider's requests: one attempt after another under the retry policy, with the waits the
/// policy (or the server's `Retry-After`) asks for, through the injected sleeper.
///
/// Retried: connection errors and timeouts, 5xx, 429. Everything else is answered at once. The transport
/// throws only for what has no HTTP answer (``EntitlementClientError/Code/offline`` once the attempts
/// are spent, ``EntitlementClientError/Code/badResponse`` for a body over the cap); every HTTP answer,
/// including a last 5xx or 429, is returned for the provider to map with its vendor's error body.
package struct HTTPTransport: Sendable {
    package let options: HTTPConnectionOptions
    package let logger: EntitlementLogger
    private let jitter: AnonymousIdGenerator.RandomSource

    package init(options: HTTPConnectionOptions, logger: EntitlementLogger, random: any RandomNumberGenerator) {
        self.options = options
        self.logger = logger
        jitter = AnonymousIdGenerator.RandomSource(random)
    }

    package func send(_ request: HTTPRequest) async throws(EntitlementClientError) -> HTTPResponse {
        let policy = options.retryPolicy
        var attempt = 1
        while true {
            logger.log(.debug, "\(request.operation): attempt \(attempt) of \(policy.maximumAttempts)")
            let outcome = await SingleExchangeLoader.load(
                request, timeout: options.requestTimeout, limit: options.maximumResponseBytes)
            let wait: Duration
            switch outcome {
            case .tooLarge(let limit):
                logger.log(.error, "\(request.operation): response larger than \(limit) bytes, refused")
                throw EntitlementClientError(
                    .badResponse, "\(request.operation): the response is larger than \(limit) bytes")
            case .connectionFailure(let reason):
                guard attempt < policy.maximumAttempts, !Task.isCancelled else {
                    logger.log(.error, "\(request.operation): \(reason) (after \(attempt) attempts)")
                    throw EntitlementClientError(
                        .offline, "\(request.operation): \(reason) (after \(attempt) attempt\(attempt == 1 ? "" : "s"))"
                    )
                }
                wait = jitter.backoff(policy, beforeRetry: attempt)
                logger.log(.warning, "\(request.operation): \(reason); retrying in \(Self.format(wait))")
            case .response(let status, let headers, let body):
                // A backend or proxy that echoes the credentials (`Invalid API key Bearer appl_…`) must not
                // put the key into an error message, a document error or a log line: blank it first.
                let response = HTTPResponse(
                    status: status, headers: SecretRedaction.redacting(request.secrets, in: headers),
                    body: SecretRedaction.redacting(request.secrets, in: body), attempts: attempt)
                guard response.isRetryable, attempt < policy.maximumAttempts, !Task.isCancelled else {
                    logger.log(
                        response.isSuccess ? .debug : .warning, "\(request.operation): HTTP \(status)")
                    return response
                }
                if let asked = RetryAfter.delay(headers["retry-after"], now: Date()) {
                    guard asked <= policy.maximumRetryAfter else {
                        logger.log(
                            .warning,
                            "\(request.operation): HTTP \(status) asks to retry after \(Self.format(asked)), more than the \(Self.format(policy.maximumRetryAfter)) cap; not retrying"
                        )
                        return response
                    }
                    wait = asked
                } else {
                    wait = jitter.backoff(policy, beforeRetry: attempt)
                }
                logger.log(.warning, "\(request.operation): HTTP \(status); retrying in \(Self.format(wait))")
            }
            await options.sleeper.sleep(for: wait)
            attempt += 1
        }
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = Int((duration.seconds * 1000).rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

extension AnonymousIdGenerator {
    /// A random number generator shared by concurrent callers.
    package final class RandomSource: @unchecked Sendable {
        // Drawing mutates the generator: every draw happens under the lock.
        private let lock = NSLock()
        private var generator: any RandomNumberGenerator

        package init(_ generator: any RandomNumberGenerator) {
            self.generator = generator
        }

        package func backoff(_ policy: HTTPRetryPolicy, beforeRetry retry: Int) -> Duration {
            lock.withLock { policy.backoff(beforeRetry: retry, using: &generator) }
        }
    }
}
