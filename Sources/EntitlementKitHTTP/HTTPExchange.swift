import Foundation

/// One request a provider sends.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`.
    package var method: String
    /// The full URL.
    package var url: URL
    /// Header fields, in the order sent.
    package var headers: [(name: String, value: String)]
    /// The body, if any.
    package var body: Data?
    /// What the request does, for log lines and error messages, without secrets:
    /// `GET /v1/subscribers/{id}`.
    package var operation: String
    /// Values sent with the request that must never come back out in an error or a log line (the API
    /// key): the transport blanks them in the response before anyone reads it.
    package var secrets: [String]

    package init(
        method: String, url: URL, headers: [(name: String, value: String)], body: Data? = nil, operation: String,
        secrets: [String] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.operation = operation
        self.secrets = secrets
    }
}

/// The answer to a request, after retries.
package struct HTTPResponse: Sendable {
    /// The HTTP status.
    package var status: Int
    /// Header fields, names lowercased.
    package var headers: [String: String]
    /// The body (at most the configured size).
    package var body: Data
    /// How many attempts were made.
    package var attempts: Int

    package init(status: Int, headers: [String: String], body: Data, attempts: Int = 1) {
        self.status = status
        self.headers = headers
        self.body = body
        self.attempts = attempts
    }

    /// 200…299.
    package var isSuccess: Bool { (200...299).contains(status) }
    /// 5xx or 429: worth retrying.
    package var isRetryable: Bool { status == 429 || (500...599).contains(status) }
}
