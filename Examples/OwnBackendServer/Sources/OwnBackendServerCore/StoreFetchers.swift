import EntitlementKitLedger
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A store's API could not give the document (unreachable, refused, not configured): the input is answered
/// 503, so the store (or the app) sends it again.
public struct FetchFailure: Error, CustomStringConvertible {
    public let description: String
    /// The store answered that there is no such purchase: a claim of it is refused (400), not retried.
    public var isRefusal = false
}

/// Fetches what a notification or a claim only names: Play purchases from the Play Developer API (service
/// account OAuth), Stripe checkout sessions (with their line items) and subscriptions from Stripe's API.
public actor StoreFetchers {
    private let packageName: String?
    private let play: URL?
    private let account: GoogleServiceAccount?
    private let stripe: URL
    private let stripeKey: String?
    private let session: URLSession
    private var accessToken: (value: String, expires: Date)?

    static let playScope = "https://www.googleapis.com/auth/androidpublisher"
    // swift-format-ignore: NeverForceUnwrap
    /// Google's API, where the Play fetcher goes without `PLAY_API_BASE_URL` (a literal that parses).
    static let playAPI = URL(string: "https://androidpublisher.googleapis.com")!
    // swift-format-ignore: NeverForceUnwrap
    /// Stripe's API, where the Stripe fetcher goes without `STRIPE_API_BASE_URL` (a literal that parses).
    static let stripeAPI = URL(string: "https://api.stripe.com")!

    /// Fetchers as `configuration` sets them. With `PLAY_API_BASE_URL`, both the token exchange
    /// (`{base}/token`) and the API go there; otherwise the key file's `token_uri` and Google's API.
    public init(configuration: ServerConfiguration) {
        packageName = configuration.packageName
        play = configuration.playAPI
        account = configuration.googleServiceAccount
        stripe = configuration.stripeAPI ?? Self.stripeAPI
        stripeKey = configuration.stripeSecretKey
        let options = URLSessionConfiguration.ephemeral
        options.timeoutIntervalForRequest = 10
        session = URLSession(configuration: options)
    }

    /// The document for `token` of `source` (`refreshNeeded`), as the ledger reads it.
    public func document(source: LedgerSourceID, token: String, productId: String?) async throws -> Data {
        switch source {
        case .googlePlay: return try await playPurchase(token: token, productId: productId)
        case .stripe: return try await stripeObject(id: token)
        default: throw FetchFailure(description: "nothing to fetch from \(source.rawValue)")
        }
    }

    /// `purchases.subscriptionsv2.get`, or, when that is not a subscription and a product id is known,
    /// `purchases.products.get`.
    private func playPurchase(token: String, productId: String?) async throws -> Data {
        guard let account, let packageName else {
            throw FetchFailure(description: "GOOGLE_SERVICE_ACCOUNT_FILE and LEDGER_PACKAGE_NAME are needed to fetch")
        }
        let base = play ?? Self.playAPI
        let application = base.appendingPathComponent("androidpublisher/v3/applications")
            .appendingPathComponent(packageName).appendingPathComponent("purchases")
        let bearer = try await playAccessToken(account)
        let subscription = application.appendingPathComponent("subscriptionsv2/tokens").appendingPathComponent(token)
        let (status, body) = try await get(subscription, bearer: bearer)
        if status == 200 { return body }
        if status == 404, let productId {
            let product = application.appendingPathComponent("products").appendingPathComponent(productId)
                .appendingPathComponent("tokens").appendingPathComponent(token)
            let (status, body) = try await get(product, bearer: bearer)
            if status == 200 { return body }
            throw FetchFailure(description: "Play Developer API answered HTTP \(status)", isRefusal: status == 404)
        }
        throw FetchFailure(description: "Play Developer API answered HTTP \(status)", isRefusal: status == 404)
    }

    /// An access token for the Play Developer API, kept until a minute before it expires.
    private func playAccessToken(_ account: GoogleServiceAccount) async throws -> String {
        let now = Date()
        if let accessToken, accessToken.expires > now.addingTimeInterval(60) { return accessToken.value }
        let endpoint = play.map { $0.appendingPathComponent("token") } ?? account.tokenURI
        let assertion = try account.assertion(scope: Self.playScope, audience: endpoint, at: now)
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)".utf8)
        let (data, response) = try await session.data(for: request)
        struct Answer: Decodable {
            var access_token: String
            var expires_in: Int?
        }
        guard (response as? HTTPURLResponse)?.statusCode == 200,
            let answer = try? JSONDecoder().decode(Answer.self, from: data)
        else { throw FetchFailure(description: "Google's token exchange refused the service account") }
        accessToken = (answer.access_token, now.addingTimeInterval(TimeInterval(answer.expires_in ?? 3600)))
        return answer.access_token
    }

    /// A checkout session (`cs_…`, with `line_items` expanded) or a subscription (`sub_…`).
    private func stripeObject(id: String) async throws -> Data {
        guard let stripeKey else { throw FetchFailure(description: "STRIPE_SECRET_KEY_FILE is needed to fetch") }
        guard var components = URLComponents(url: stripe, resolvingAgainstBaseURL: false) else {
            throw FetchFailure(description: "STRIPE_API_BASE_URL does not form a URL")
        }
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["_", "-"])) ?? id
        if id.hasPrefix("cs_") {
            components.percentEncodedPath =
                components.percentEncodedPath.trimmingTrailingSlash
                + "/v1/checkout/sessions/" + escaped
            components.queryItems = [URLQueryItem(name: "expand[]", value: "line_items")]
        } else if id.hasPrefix("sub_") {
            components.percentEncodedPath =
                components.percentEncodedPath.trimmingTrailingSlash
                + "/v1/subscriptions/" + escaped
        } else {
            throw FetchFailure(description: "a Stripe id is a checkout session (cs_) or a subscription (sub_)")
        }
        guard let url = components.url else { throw FetchFailure(description: "the Stripe id does not form a URL") }
        let (status, body) = try await get(url, bearer: stripeKey)
        guard status == 200 else {
            throw FetchFailure(description: "Stripe's API answered HTTP \(status)", isRefusal: status == 404)
        }
        return body
    }

    private func get(_ url: URL, bearer: String) async throws -> (Int, Data) {
        var request = URLRequest(url: url)
        request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization")
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

extension String {
    fileprivate var trimmingTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
