import EntitlementKit
import EntitlementKitHTTP
import Foundation

/// Your own server as an ``EntitlementKit/EntitlementProvider``: the customer's unified snapshot from
/// `GET {baseURL}/customers/{id}/entitlements`, restores, syncs and purchases through
/// `POST {baseURL}/customers/{id}/purchases`, logIn through `POST {baseURL}/customers/{to}/login`.
///
/// ```swift
/// let provider = try OwnBackendProvider(
///     configuration: .init(baseURL: URL(string: "https://api.example.com/")!),
///     requestHeaders: { _ in ["Authorization": "Bearer " + (await session.token)] })
/// let client = try await EntitlementClient(provider: provider, cache: cache)
/// ```
///
/// The server answers with EntitlementKit's unified snapshot JSON (any schema version this package
/// reads), which is read by the core's strict decoder and re-judged at the provider's clock: a body that
/// is not a valid snapshot, or a snapshot of another customer than the one asked for, is
/// `badResponse` and grants nothing. A server built on `EntitlementLedger` answers these routes in a few
/// lines each (the *Running your own backend* article).
///
/// Every request carries the headers `requestHeaders` makes for the customer it acts for (the app's
/// session token). Their values are never logged, never shown in a description, and blanked in every
/// error. Timeouts, retries, the size cap and the error codes are the live providers' (*Connecting a
/// backend*); app user ids are checked before any request and sent as one percent-encoded path segment.
public struct OwnBackendProvider: EntitlementProvider, CustomStringConvertible, CustomReflectable {
    /// Makes the headers of a request acting for `appUserId` (for a logIn, the customer logged in to):
    /// typically `["Authorization": "Bearer <session token>"]`. An ``EntitlementKit/EntitlementClientError``
    /// it throws is the operation's error; any other error is `credentialsRefused`.
    public typealias RequestHeaders = @Sendable (_ appUserId: String) async throws -> [String: String]

    /// The server, its routes, the anonymous id form and the HTTP options.
    public let configuration: Configuration
    private let requestHeaders: RequestHeaders
    private let core: LiveProviderCore
    private let changeSignal: OwnBackendChangeSignal?

    /// Creates the provider. `requestHeaders` is called once per operation (retries resend the same
    /// headers). `randomNumberGenerator` draws anonymous ids and retry jitter (the system's by default);
    /// `clock` is the instant snapshots are first evaluated at (the runtime client re-evaluates them at
    /// its trusted instant). `changeSignal`: what the app sends from its silent-push handler and when it
    /// comes to the foreground, so clients refetch (``makeChangeSignals()``).
    public init(
        configuration: Configuration, requestHeaders: @escaping RequestHeaders = { _ in [:] },
        changeSignal: OwnBackendChangeSignal? = nil, logger: EntitlementLogger = .disabled,
        clock: any WallClock = SystemClock(),
        randomNumberGenerator: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.requestHeaders = requestHeaders
        self.changeSignal = changeSignal
        core = LiveProviderCore(
            baseURL: configuration.baseURL, connection: configuration.connection, logger: logger, clock: clock,
            randomNumberGenerator: randomNumberGenerator)
    }

    /// `ownbackend`.
    public var provider: ProviderID { .ownBackend }

    /// `ownbackend-` + 16 hex digits of a digest of ``Configuration/storageKey`` (the base URL unless
    /// you set one): two servers sharing a cache directory never share an id or an answer.
    public var storageNamespace: String {
        LiveProviderConfiguration.storageNamespace(for: provider, digesting: configuration.storageKey)
    }

    /// ``Configuration/anonymousIds``' prefix + 32 lowercase hex digits (`$RCAnonymousID:…` by default).
    public func makeAnonymousAppUserId() -> String {
        core.makeAnonymousId(prefix: configuration.anonymousIds.prefix)
    }

    /// Whether `appUserId` has ``Configuration/anonymousIds``' form.
    public func isAnonymous(_ appUserId: String) -> Bool {
        configuration.anonymousIds.matches(appUserId)
    }

    /// `GET {baseURL}/customers/{id}/entitlements` (``Routes/entitlements``).
    public func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try LiveProviderCore.checkUsable(appUserId)
        let route = configuration.routes.entitlements
        return try await exchange("GET", route, id: appUserId, body: nil) { node, instant throws(DocumentError) in
            try OwnBackendAnswer.snapshot(in: node, for: appUserId, at: instant)
        }
    }

    /// `POST {baseURL}/customers/{to}/login` (``Routes/logIn``) with `{"from": currentAppUserId}`; the
    /// server answers `{"created": Bool, "snapshot": <the new customer's snapshot>}`.
    public func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try LiveProviderCore.checkUsable(currentAppUserId)
        try LiveProviderCore.checkUsable(newAppUserId)
        let body = JSONValue.object(["from": .string(currentAppUserId)])
        return try await exchange("POST", configuration.routes.logIn, id: newAppUserId, body: body) {
            node, instant throws(DocumentError) in
            try OwnBackendAnswer.logIn(in: node, for: newAppUserId, at: instant)
        }
    }

    /// `POST {baseURL}/customers/{id}/purchases` (``Routes/purchases``) with `{"store", "token"}`; the
    /// server answers with the customer's snapshot afterwards.
    public func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await post(receipt, productId: nil, for: appUserId)
    }

    /// `POST {baseURL}/customers/{id}/purchases` (``Routes/purchases``) with `{"store", "token",
    /// "productId"}`; the server answers with the customer's snapshot afterwards.
    public func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await post(purchase.receipt, productId: purchase.productId, for: appUserId)
    }

    /// A stream of the app's ``OwnBackendChangeSignal`` (`nil` without one): on each, a client fetches
    /// its customer's snapshot again. The server's state changes without the app asking (a refund, a
    /// renewal), so the app sends the signal from its silent-push handler and when it comes to the foreground.
    public func makeChangeSignals() -> AsyncStream<Void>? {
        changeSignal?.makeStream()
    }

    /// The base URL, routes and options; never the request headers.
    public var description: String { "OwnBackendProvider(\(configuration))" }

    /// A mirror of the configuration only, so `dump` shows no header.
    public var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration as Any], displayStyle: .struct)
    }

    private func post(_ receipt: StoreReceipt, productId: String?, for appUserId: String)
        async throws(EntitlementClientError) -> EntitlementSnapshot
    {
        try LiveProviderCore.checkUsable(appUserId)
        var fields: [String: JSONValue] = ["store": .string(receipt.store.rawValue), "token": .string(receipt.token)]
        if let productId { fields["productId"] = .string(productId) }
        return try await exchange("POST", configuration.routes.purchases, id: appUserId, body: .object(fields)) {
            node, instant throws(DocumentError) in
            try OwnBackendAnswer.snapshot(in: node, for: appUserId, at: instant)
        }
    }

    /// Makes the headers, sends the request and reads a 2xx body with `decode` at the clock's instant; a
    /// non-2xx answer is the server's error. No error shows a header's value.
    private func exchange<Answer>(
        _ method: String, _ route: OwnBackendPathTemplate, id: String, body: JSONValue?,
        decode: (JSONNode, Date) throws(DocumentError) -> Answer
    ) async throws(EntitlementClientError) -> Answer {
        let operation = "\(method) /\(route.template)"
        let headers = try await OwnBackendRequestHeaders.make(requestHeaders, for: id, operation: operation)
        // The header values are not the transport's secrets: it would blank them in 2xx bodies too, and a
        // value the snapshot also holds (a header carrying the app user id) would break the answer. Errors
        // are made from a blanked copy of the answer instead, the only text that leaves.
        let response = try await core.send(
            method, path: route.path(for: id), authorization: nil, headers: headers.fields, body: body, secrets: [],
            operation: operation, unformableURLCode: .invalidAppUserId)
        let shown = headers.redacting(response)
        guard response.isSuccess else { throw OwnBackendErrorBody.error(for: shown, operation: operation) }
        let instant = core.clock.now()
        do {
            return try decode(JSONNode(parsing: response.body), instant)
        } catch {
            throw HTTPFailureMapping.refusedBody(
                Self.reportable(error, decodingBlanked: shown.body, at: instant, with: decode), response: shown,
                operation: operation)
        }
    }

    /// The error to report for a refused body: the one the blanked body gives, so a quoted value (cut
    /// short, where blanking would miss it) never carries a header's value; a generic one in the odd case
    /// where blanking made the body readable.
    private static func reportable<Answer>(
        _ error: DocumentError, decodingBlanked body: Data, at instant: Date,
        with decode: (JSONNode, Date) throws(DocumentError) -> Answer
    ) -> DocumentError {
        do {
            _ = try decode(JSONNode(parsing: body), instant)
            return DocumentError(
                kind: error.kind, path: .root, reason: "is refused (the detail would quote a request header's value)")
        } catch {
            return error
        }
    }
}

extension ProviderID {
    /// An app's own server read through `OwnBackendProvider` (`EntitlementKitOwnBackend`).
    public static let ownBackend = ProviderID(rawValue: "ownbackend")
}
