import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one attempt ended with.
package enum AttemptOutcome: Sendable {
    /// The server answered (any status).
    case response(status: Int, headers: [String: String], body: Data)
    /// No answer: no connection, a dropped connection, a timeout. The text says which.
    case connectionFailure(String)
    /// The body grew past the size cap; reading stopped there.
    case tooLarge(limit: Int)
}

/// Runs one request on its own ephemeral `URLSession` and reads the body through a delegate, so a body
/// over the size cap is cut off as it arrives instead of being buffered whole. Redirects are refused (a
/// 3xx is returned as it is): a proxy must not be able to send the key on to another host. No cookies,
/// no cache.
final class SingleExchangeLoader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Delegate callbacks arrive on the session's queue while `load` waits: state lives under the lock.
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var exceeded = false
    private var continuation: CheckedContinuation<AttemptOutcome, Never>?
    private var finished: AttemptOutcome?
    private let limit: Int

    private init(limit: Int) {
        self.limit = limit
    }

    /// Sends `request` once, waiting at most `timeout`.
    static func load(_ request: HTTPRequest, timeout: Duration, limit: Int) async -> AttemptOutcome {
        let loader = SingleExchangeLoader(limit: limit)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.seconds
        configuration.timeoutIntervalForResource = timeout.seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration, delegate: loader, delegateQueue: nil)
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = timeout.seconds
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        urlRequest.httpBody = request.body
        let task = session.dataTask(with: urlRequest)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AttemptOutcome, Never>) in
                loader.wait(with: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        if case .tooLarge = outcome {
            // The body is still arriving: cancel it outright rather than let the session read on.
            session.invalidateAndCancel()
        } else {
            session.finishTasksAndInvalidate()
        }
        return outcome
    }

    private func wait(with continuation: CheckedContinuation<AttemptOutcome, Never>) {
        let ready: AttemptOutcome? = lock.withLock {
            if let finished { return finished }
            self.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    private func finish(_ outcome: AttemptOutcome) {
        let waiting: CheckedContinuation<AttemptOutcome, Never>? = lock.withLock {
            guard finished == nil else { return nil }
            finished = outcome
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: outcome)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        let tooLarge = declared > Int64(limit)
        lock.withLock {
            self.response = http
            if tooLarge { exceeded = true }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over: Bool = lock.withLock {
            guard !exceeded else { return true }
            body.append(data)
            if body.count > limit {
                exceeded = true
                body = Data()
            }
            return exceeded
        }
        guard over else { return }
        // Answer now, not when the cancelled task completes: on Linux that can take as long as the server
        // keeps sending, and a caller must not wait on (nor the session buffer) a body already refused.
        dataTask.cancel()
        finish(.tooLarge(limit: limit))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (exceeded, response, body) = lock.withLock { (self.exceeded, self.response, self.body) }
        if exceeded {
            finish(.tooLarge(limit: limit))
        } else if let error {
            finish(.connectionFailure(Self.describe(error)))
        } else if let response {
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            finish(.response(status: response.statusCode, headers: headers, body: body))
        } else {
            finish(.connectionFailure("the server sent no HTTP response"))
        }
    }

    /// A short reason for a transport error, from its URL error code.
    private static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return "the connection failed" }
        switch urlError.code {
        case .timedOut: return "the request timed out"
        case .notConnectedToInternet: return "there is no network connection"
        case .cannotConnectToHost: return "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: return "the server's host name could not be resolved"
        case .networkConnectionLost: return "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "a secure connection could not be established"
        case .cancelled: return "the request was cancelled"
        case .badServerResponse, .cannotParseResponse: return "the server's answer was not valid HTTP"
        case .unknown: return "the connection failed or closed before the answer was complete"
        default: return "the connection failed (URL error \(urlError.code.rawValue))"
        }
    }
}
