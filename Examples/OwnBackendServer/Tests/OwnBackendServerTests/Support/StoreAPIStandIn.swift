import Foundation
import Hummingbird
import NIOCore
import ServerHarness

/// Google's and Stripe's APIs on a loopback port, as far as the server uses them: Google's token exchange
/// (`POST /token`, any assertion signed RS256 answered with an access token) and
/// `GET /androidpublisher/v3/applications/{package}/purchases/subscriptionsv2/tokens/{token}`; Stripe's
/// `GET /v1/subscriptions/{id}` and `GET /v1/checkout/sessions/{id}`. Documents are set by the test.
final class StoreAPIStandIn: @unchecked Sendable {
    // Guards the documents and the requests seen.
    private let lock = NSLock()
    private var documents: [String: Data] = [:]
    private var seenAuthorizations: [String] = []
    private var task: Task<Void, any Error>?
    private(set) var baseURL = URL(fileURLWithPath: "/")

    static let accessToken = "ya29.test-access-token"
    static let stripeKey = "sk_test_own_backend"

    /// Serves `document` for the purchase token or Stripe id `key`.
    func set(_ document: Data, for key: String) { lock.withLock { documents[key] = document } }

    /// The `Authorization` headers the API requests carried.
    var authorizations: [String] { lock.withLock { seenAuthorizations } }

    /// Starts serving; returns once the port is known.
    func start() async throws {
        let router = Router()
        router.post("token") { request, _ -> Response in
            var body = try await request.body.collect(upTo: 1 << 16)
            let form = body.readString(length: body.readableBytes) ?? ""
            // A JWT bearer grant with a three-part assertion whose header names RS256.
            guard form.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"),
                let assertion = form.split(separator: "&").first(where: { $0.hasPrefix("assertion=") }),
                assertion.split(separator: ".").count == 3
            else { return Response(status: .badRequest) }
            let answer = #"{"access_token": "\#(Self.accessToken)", "expires_in": 3599, "token_type": "Bearer"}"#
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
        }
        router.get("androidpublisher/v3/applications/:package/purchases/subscriptionsv2/tokens/:token") {
            request, context in
            self.answer(request, key: context.parameters.get("token") ?? "", bearer: Self.accessToken)
        }
        router.get("v1/subscriptions/:id") { request, context in
            self.answer(request, key: context.parameters.get("id") ?? "", bearer: Self.stripeKey)
        }
        router.get("v1/checkout/sessions/:id") { request, context in
            self.answer(request, key: context.parameters.get("id") ?? "", bearer: Self.stripeKey)
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            })
        task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw ServerFailure("the stand-in did not start") }
        guard let url = URL(string: "http://127.0.0.1:\(port)/") else { throw ServerFailure("no URL for \(port)") }
        baseURL = url
    }

    func stop() { task?.cancel() }

    private func answer(_ request: Request, key: String, bearer: String) -> Response {
        let authorization = request.headers[.authorization] ?? ""
        let document: Data? = lock.withLock {
            seenAuthorizations.append(authorization)
            return documents[key.removingPercentEncoding ?? key]
        }
        guard authorization == "Bearer " + bearer else { return Response(status: .unauthorized) }
        guard let document else { return Response(status: .notFound) }
        return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
    }
}
