import EntitlementKit
import EntitlementKitLedger
import Foundation

/// An HTTP answer: a status and a JSON body.
struct RouteAnswer: Sendable {
    var status: Int
    var body: Data

    /// `{"code": …, "message": …}`: `code` is one of the app's error codes where the app must tell it apart.
    static func error(_ status: Int, _ code: String, _ message: String) -> RouteAnswer {
        let body = JSONValue.object(["code": .string(code), "message": .string(message)])
        return RouteAnswer(status: status, body: Data(body.compactText.utf8))
    }
}

/// An own backend's routes over an `EntitlementLedger`: the three the app's `OwnBackendProvider` calls,
/// and one the stores push their notifications to. Plain functions of method, path, headers and body,
/// which a Vapor, Hummingbird or Lambda route calls with the request's parts.
struct EntitlementRoutes: Sendable {
    let ledger: EntitlementLedger
    /// Whether the request's headers (the app's session) authenticate `appUserId`: your session check.
    let authenticates: @Sendable (_ headers: [String: String], _ appUserId: String) async -> Bool
    /// Fetches a purchase from its store (Play's `purchases.subscriptionsv2`, a Stripe checkout session
    /// with its line items): the document's JSON. A notification that says only "it changed" needs one.
    let fetch: @Sendable (_ source: LedgerSourceID, _ purchaseToken: String, _ productId: String?) async throws -> Data
    /// The instant a request arrived.
    let now: @Sendable () -> Date

    func handle(method: String, path: String, headers: [String: String], body: Data) async -> RouteAnswer {
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding }
        let parts = segments.compactMap(\.self)
        guard parts.count == segments.count else { return .error(400, "badRequest", "the path is not percent-encoded") }
        do {
            if method == "POST", parts.count == 2, parts[0] == "notifications" {
                return try await receive(body, headers: headers, from: LedgerSourceID(rawValue: parts[1]))
            }
            guard parts.count == 3, parts[0] == "customers" else { return .error(404, "notFound", "no such route") }
            let appUserId = parts[1]
            guard await authenticates(headers, appUserId) else {
                return .error(401, "credentialsRefused", "the session does not authenticate this customer")
            }
            switch (method, parts[2]) {
            case ("GET", "entitlements"): return try await snapshot(of: appUserId)
            case ("POST", "purchases"): return try await postPurchase(body, as: appUserId)
            case ("POST", "login"): return try await logIn(body, to: appUserId)
            default: return .error(404, "notFound", "no such route")
            }
        } catch let refusal as LedgerRefusal {
            return Self.answer(to: refusal)
        } catch let error as DocumentError {
            return .error(400, "badRequest", "the request body is refused: \(error)")
        } catch {
            // The store could not be reached to fetch a purchase: a 5xx, so the app and the store retry.
            return .error(503, "storeUnavailable", "the purchase could not be fetched from its store")
        }
    }

    /// `GET customers/{id}/entitlements`: the customer's unified snapshot. The session authenticated the
    /// id, so its customer exists from now on (a later logIn to it is not `created`).
    private func snapshot(of appUserId: String) async throws -> RouteAnswer {
        try await ledger.register(appUserId: appUserId)
        let snapshot = try await ledger.snapshot(for: appUserId, at: now())
        return RouteAnswer(status: 200, body: snapshot.canonicalJSONData())
    }

    /// `POST customers/{id}/purchases` with `{"store", "token", "productId"?}`: the app's restore, sync or
    /// purchase, posted as the customer — a claim, never a document. App Store JWS are verified as they
    /// are; a Play token or a Stripe id is answered `refreshNeeded`, and the purchase the server fetched
    /// from the store itself is applied for the customer. Answers the snapshot afterwards.
    private func postPurchase(_ body: Data, as appUserId: String) async throws -> RouteAnswer {
        let request = try JSONNode(parsing: body)
        let source: LedgerSourceID
        switch try request.required("store").string() {
        case "appStore", "macAppStore": source = .appStore
        case "playStore": source = .googlePlay
        case "stripe": source = .stripe
        case let store:
            return .error(422, "unknownStore", "purchases from \(JSONValue.string(store).compactText) are not read")
        }
        let claim = LedgerClaim(
            source: source, token: try request.required("token").string(),
            productId: try request.optional("productId")?.string(), appUserId: appUserId, receivedAt: now())
        var outcome = try await ledger.apply(claim)
        if case .refreshNeeded(let token, let productId) = outcome {
            let fetched = try await fetch(source, token, productId)
            outcome = try await ledger.apply(
                LedgerDocument(
                    source: source, body: fetched, purchaseToken: token, appUserId: appUserId, receivedAt: now()))
        }
        if case .receiptInUseByOtherUser = outcome {
            // Never the owner's id: it is another customer's.
            return .error(409, "receiptInUseByOtherUser", "the purchase belongs to another account")
        }
        return try await snapshot(of: appUserId)
    }

    /// `POST customers/{to}/login` with `{"from"}`: answers `{"created", "snapshot"}`.
    private func logIn(_ body: Data, to appUserId: String) async throws -> RouteAnswer {
        let from = try JSONNode(parsing: body).required("from").string()
        let result = try await ledger.logIn(from: from, to: appUserId)
        let snapshot = try await ledger.snapshot(for: appUserId, at: now())
        let answer = Data(#"{"created": \#(result.created), "snapshot": "#.utf8) + snapshot.canonicalJSONData()
        return RouteAnswer(status: 200, body: answer + Data("}".utf8))
    }

    /// `POST notifications/{source}` (`appStore`, `googlePlay`, `stripe`): the raw body and headers as the
    /// store sent them. A notification that says only "this purchase changed" is followed by a fetch.
    private func receive(_ body: Data, headers: [String: String], from source: LedgerSourceID) async throws
        -> RouteAnswer
    {
        let notification = LedgerNotification(source: source, body: body, headers: headers, receivedAt: now())
        var outcome = try await ledger.apply(notification)
        if case .refreshNeeded(let token, let productId) = outcome {
            let fetched = try await fetch(source, token, productId)
            outcome = try await ledger.apply(
                LedgerDocument(source: source, body: fetched, purchaseToken: token, receivedAt: now()))
        }
        return RouteAnswer(
            status: 200, body: Data(JSONValue.object(["outcome": .string(outcome.name)]).compactText.utf8))
    }

    /// A refused input: the app's id refused, the store's state unreadable (a 5xx: retry), or an input the
    /// ledger will not keep (forged, foreign, sandbox, malformed: retrying changes nothing).
    private static func answer(to refusal: LedgerRefusal) -> RouteAnswer {
        switch refusal.kind {
        case .invalidAppUserId: .error(400, "invalidAppUserId", refusal.message)
        case .unknownSource: .error(404, "notFound", refusal.message)
        case .storage: .error(503, "storageUnavailable", "the ledger could not be read or written")
        default: .error(422, refusal.kind.rawValue, refusal.message)
        }
    }
}
