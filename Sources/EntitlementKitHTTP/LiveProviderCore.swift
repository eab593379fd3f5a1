import EntitlementKit
import Foundation

/// What every live provider does the same way around its vendor's endpoints: checking app user ids,
/// building and sending requests (key in `Authorization`, JSON bodies, the key registered as a secret
/// the transport blanks in answers), drawing anonymous ids, and turning a 2xx body into a snapshot or a
/// non-2xx answer into the vendor's error. A provider is then its endpoints and its error body.
package struct LiveProviderCore: Sendable {
    /// Where requests go.
    package let baseURL: BackendBaseURL
    /// The clock snapshots are first evaluated at.
    package let clock: any WallClock
    private let transport: HTTPTransport
    private let anonymousIds: AnonymousIdGenerator

    /// A core for a vendor's provider: the configuration's base URL and HTTP options.
    package init(
        configuration: LiveProviderConfiguration, logger: EntitlementLogger, clock: any WallClock,
        randomNumberGenerator: any RandomNumberGenerator
    ) {
        self.init(
            baseURL: configuration.baseURL, connection: configuration.connection, logger: logger, clock: clock,
            randomNumberGenerator: randomNumberGenerator)
    }

    /// A core for a backend without a vendor key (the app's own server, whose credentials the app gives
    /// per request).
    package init(
        baseURL: BackendBaseURL, connection: HTTPConnectionOptions, logger: EntitlementLogger, clock: any WallClock,
        randomNumberGenerator: any RandomNumberGenerator
    ) {
        self.baseURL = baseURL
        self.clock = clock
        anonymousIds = AnonymousIdGenerator(randomNumberGenerator)
        transport = HTTPTransport(options: connection, logger: logger, random: randomNumberGenerator)
    }

    /// `prefix` + 32 lowercase hex digits.
    package func makeAnonymousId(prefix: String) -> String {
        anonymousIds.make(prefix: prefix)
    }

    /// Refuses an id the backends refuse (``EntitlementKit/AppUserIdCheck/backendRefusal``) before any
    /// request, as `invalidAppUserId` naming the rule and quoting the id cut to
    /// `DocumentError.maximumValueLength` characters.
    package static func checkUsable(_ appUserId: String) throws(EntitlementClientError) {
        if let reason = AppUserIdCheck(appUserId).backendRefusal {
            throw EntitlementClientError(.invalidAppUserId, "app user id \(DocumentError.quoted(appUserId)) \(reason)")
        }
    }

    /// Sends one request to `path` (percent-encoded, below the base URL) with `Authorization:
    /// <authorization>` (none when `nil`), `Accept: application/json`, `Content-Type: <contentType>` when
    /// there is a body, then `headers`. `secrets` (the key as sent, at least) are blanked in the answer. A
    /// URL that cannot be formed is `unformableURLCode` (each provider kept its own).
    package func send(
        _ method: String, path: String, authorization: String?, headers extra: [(name: String, value: String)] = [],
        body: JSONValue?, contentType: String = "application/json", secrets: [String], operation: String,
        unformableURLCode: EntitlementClientError.Code = .badResponse
    ) async throws(EntitlementClientError) -> HTTPResponse {
        guard let url = baseURL.appending(encodedPath: path) else {
            throw EntitlementClientError(unformableURLCode, "\(operation): the request URL could not be formed")
        }
        var headers: [(name: String, value: String)] = []
        if let authorization { headers.append(("Authorization", authorization)) }
        headers.append(("Accept", "application/json"))
        if body != nil { headers.append(("Content-Type", contentType)) }
        headers += extra
        let request = HTTPRequest(
            method: method, url: url, headers: headers, body: body.map { Data($0.compactText.utf8) },
            operation: operation, secrets: secrets)
        return try await transport.send(request)
    }

    /// The snapshot in a 2xx `response`, read by `decode` at the clock's instant; a non-2xx answer is
    /// `vendorError`'s mapping, a refused body `badResponse` with its located document error.
    package func snapshot(
        from response: HTTPResponse, operation: String,
        vendorError: (HTTPResponse, String) -> EntitlementClientError,
        decode: (Data, Date) throws(DocumentError) -> EntitlementSnapshot
    ) throws(EntitlementClientError) -> EntitlementSnapshot {
        guard response.isSuccess else { throw vendorError(response, operation) }
        do {
            return try decode(response.body, clock.now())
        } catch {
            throw HTTPFailureMapping.refusedBody(error, response: response, operation: operation)
        }
    }
}
