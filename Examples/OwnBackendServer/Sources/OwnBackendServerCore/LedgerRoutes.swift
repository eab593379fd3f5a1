import EntitlementKit
import EntitlementKitLedger
import Foundation
import Hummingbird
import Logging

/// The server's routes over an `EntitlementLedger` (`own-backend-server.md`): the stores' notifications,
/// the app's customer routes behind sessions, and `/healthz`.
public struct LedgerRoutes: Sendable {
    /// Bodies larger than this are answered 413 before any is read further.
    public static let bodyLimit = 1 << 20

    let ledger: EntitlementLedger
    let sessions: any SessionAuthenticator
    let fetchers: StoreFetchers
    let isHealthy: @Sendable () async -> Bool
    let logger: Logger
    let now: @Sendable () -> Date

    /// Routes over `ledger`, serving customers `sessions` authenticate, fetching with `fetchers`;
    /// `isHealthy` answers `/healthz`; every 503 is logged to `logger` with its cause (never a secret);
    /// `now` is the instant a request arrived.
    public init(
        ledger: EntitlementLedger, sessions: any SessionAuthenticator, fetchers: StoreFetchers,
        isHealthy: @escaping @Sendable () async -> Bool, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.ledger = ledger
        self.sessions = sessions
        self.fetchers = fetchers
        self.isHealthy = isHealthy
        self.logger = logger
        self.now = now
    }

    /// Adds every route to `router`.
    public func add(to router: Router<BasicRequestContext>) {
        router.get("healthz") { _, _ in
            await isHealthy() ? Response(status: .ok) : Response(status: .serviceUnavailable)
        }
        router.post("notifications/appstore") { request, _ in
            await notification(request, source: .appStore, handled: .ok)
        }
        router.post("notifications/googleplay") { request, _ in
            await notification(request, source: .googlePlay, handled: .noContent)
        }
        router.post("webhooks/stripe") { request, _ in
            await notification(request, source: .stripe, handled: .ok)
        }
        router.get("customers/:id/entitlements") { request, context in
            await customer(request, context) { appUserId, _ in try await snapshot(of: appUserId) }
        }
        router.get("customers/:id/account-token") { request, context in
            await customer(request, context) { appUserId, _ in try await accountToken(of: appUserId) }
        }
        router.post("customers/:id/purchases") { request, context in
            await customer(request, context) { appUserId, body in try await claim(body, as: appUserId) }
        }
        router.post("customers/:id/login") { request, context in
            await customer(request, context) { appUserId, body in try await logIn(body, to: appUserId) }
        }
    }

    // MARK: The stores

    /// A notification as the store sent it; a refresh needed is served at once (fetched and applied).
    private func notification(_ request: Request, source: LedgerSourceID, handled: HTTPResponse.Status) async
        -> Response
    {
        do {
            let body = try await Self.body(of: request)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let receivedAt = now()
            var outcome = try await ledger.apply(
                LedgerNotification(source: source, body: body, headers: headers, receivedAt: receivedAt))
            if case .refreshNeeded(let token, let productId) = outcome {
                let document = try await fetchers.document(source: source, token: token, productId: productId)
                outcome = try await ledger.apply(
                    LedgerDocument(source: source, body: document, purchaseToken: token, receivedAt: now()))
            }
            guard handled == .ok else { return Response(status: handled) }
            var fields: [String: JSONValue] = ["outcome": .string(outcome.name)]
            if case .applied(let customers) = outcome { fields["customers"] = .array(customers.map(JSONValue.string)) }
            return Self.json(.ok, .object(fields))
        } catch {
            return answer(to: error, request)
        }
    }

    // MARK: The app

    /// Authenticates the session for `{id}` (401 none, 403 another customer), then answers `route`.
    private func customer(
        _ request: Request, _ context: BasicRequestContext,
        route: (_ appUserId: String, _ body: Data) async throws -> Response
    ) async -> Response {
        guard let raw = context.parameters.get("id"), let appUserId = raw.removingPercentEncoding else {
            return Self.error(.badRequest, "badRequest", "the customer id is not percent-encoded")
        }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            let sessionUser = await sessions.appUserId(forSession: String(header.dropFirst("Bearer ".count)))
        else { return Self.error(.unauthorized, "credentialsRefused", "no session, or an unknown one") }
        guard Array(sessionUser.utf8) == Array(appUserId.utf8) else {
            return Self.error(.forbidden, "credentialsRefused", "the session is another customer's")
        }
        do {
            return try await route(appUserId, try await Self.body(of: request))
        } catch {
            return answer(to: error, request)
        }
    }

    /// `GET customers/{id}/entitlements`. The session authenticated the id, so its customer exists from
    /// now on (a later logIn to it is not `created`).
    private func snapshot(of appUserId: String) async throws -> Response {
        try await ledger.register(appUserId: appUserId)
        let snapshot = try await ledger.snapshot(for: appUserId, at: now())
        return Self.data(.ok, snapshot.canonicalJSONData())
    }

    /// `GET customers/{id}/account-token`: the customer's token for Apple's `appAccountToken` and Play's
    /// `obfuscatedExternalAccountId`, registered with `link(…)` so the stores' notifications name the
    /// customer. A UUID app user id is its own token; any other id's is a UUID derived from it (SHA-256,
    /// version 8), the same in every server process without a table of its own. It is not a secret.
    private func accountToken(of appUserId: String) async throws -> Response {
        try await ledger.register(appUserId: appUserId)
        let token = AccountToken.of(appUserId)
        _ = try await ledger.link(accountToken: token, to: appUserId)
        _ = try await ledger.link(obfuscatedAccountId: token, to: appUserId)
        return Self.json(.ok, .object(["accountToken": .string(token)]))
    }

    /// `POST customers/{id}/purchases` with `{"store", "token", "productId"?}`: a claim (`LedgerClaim`),
    /// never taken as fact. App Store JWS are verified by the ledger as they are; a Play token or a Stripe
    /// id is answered `refreshNeeded`, and the purchase the server fetched from the store itself is
    /// applied for the customer. Answers the snapshot afterwards.
    private func claim(_ body: Data, as appUserId: String) async throws -> Response {
        let request = try JSONNode(parsing: body)
        let source: LedgerSourceID
        switch try request.required("store").string() {
        case "appStore", "macAppStore": source = .appStore
        case "playStore": source = .googlePlay
        case "stripe": source = .stripe
        case let store:
            return Self.error(
                .unprocessableContent, "unknownStore",
                "purchases from \(JSONValue.string(store).compactText) are not read")
        }
        let claim = LedgerClaim(
            source: source, token: try request.required("token").string(),
            productId: try request.optional("productId")?.string(), appUserId: appUserId, receivedAt: now())
        var outcome = try await ledger.apply(claim)
        if case .refreshNeeded(let token, let productId) = outcome {
            let document = try await fetchers.document(source: source, token: token, productId: productId)
            outcome = try await ledger.apply(
                LedgerDocument(
                    source: source, body: document, purchaseToken: token, appUserId: appUserId, receivedAt: now()))
        }
        if case .receiptInUseByOtherUser = outcome {
            // Never the owner's id: it is another customer's.
            return Self.error(.conflict, "receiptInUseByOtherUser", "the purchase belongs to another account")
        }
        return try await snapshot(of: appUserId)
    }

    /// `POST customers/{to}/login` with `{"from"}`: `from` must be the session's own customer's id, or an
    /// anonymous id no identified customer holds (else 403: a session never takes another's customer).
    private func logIn(_ body: Data, to appUserId: String) async throws -> Response {
        let from = try JSONNode(parsing: body).required("from").string()
        let fromIds = try await ledger.appUserIds(ofCustomerHolding: from)
        let isOwn = fromIds.contains { Array($0.utf8) == Array(appUserId.utf8) }
        let isFreeAnonymous =
            ledger.configuration.isAnonymousAppUserId(from)
            && !fromIds.contains { !ledger.configuration.isAnonymousAppUserId($0) }
        guard isOwn || isFreeAnonymous else {
            return Self.error(.forbidden, "credentialsRefused", "logIn from an id that is not the session's customer's")
        }
        let result = try await ledger.logIn(from: from, to: appUserId)
        let snapshot = try await ledger.snapshot(for: appUserId, at: now())
        let answer = Data(#"{"created":\#(result.created),"snapshot":"#.utf8) + snapshot.canonicalJSONData()
        return Self.data(.ok, answer + Data("}".utf8))
    }

    // MARK: Answers

    /// The body, at most ``bodyLimit`` bytes (more: 413).
    private static func body(of request: Request) async throws -> Data {
        var buffer = try await request.body.collect(upTo: bodyLimit)
        return buffer.readData(length: buffer.readableBytes) ?? Data()
    }

    /// The answer to `error`, a 503 logged with its cause: the operator's one clue to an outage the
    /// stores hide by retrying.
    private func answer(to error: any Error, _ request: Request) -> Response {
        let response = Self.answer(to: error)
        if response.status == .serviceUnavailable {
            // Not every error's text: a URL error would name the purchase token it fetched.
            let cause =
                (error as? LedgerRefusal)?.message ?? (error as? FetchFailure)?.description
                ?? String(describing: type(of: error))
            logger.warning("503 for \(request.method) \(request.uri.path): \(cause)")
        }
        return response
    }

    /// A refused input 400; storage or a fetch failed 503 (the store or the app retries); 413 too large.
    private static func answer(to error: any Error) -> Response {
        switch error {
        case let refusal as LedgerRefusal:
            switch refusal.kind {
            case .storage, .damaged:
                return Self.error(.serviceUnavailable, "storageUnavailable", "the ledger could not be read or written")
            case .unknownSource: return Self.error(.notFound, "notFound", "no source of that kind is configured")
            case .unauthenticated: return Self.error(.unauthorized, "unauthenticated", refusal.message)
            default: return Self.error(.badRequest, refusal.kind.rawValue, refusal.message)
            }
        case let error as DocumentError:
            return Self.error(.badRequest, "badRequest", "the request body is refused: \(error)")
        case let failure as FetchFailure where failure.isRefusal:
            return Self.error(.badRequest, "purchaseNotFound", failure.description)
        case is FetchFailure:
            return Self.error(
                .serviceUnavailable, "storeUnavailable", "the purchase could not be fetched from its store")
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            return Self.error(.contentTooLarge, "bodyTooLarge", "bodies are at most 1 MiB")
        default:
            return Self.error(.serviceUnavailable, "unavailable", "the request could not be served")
        }
    }

    static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        json(status, .object(["error": .object(["code": .string(code), "message": .string(message)])]))
    }

    private static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        data(status, Data(value.compactText.utf8))
    }

    private static func data(_ status: HTTPResponse.Status, _ body: Data) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
