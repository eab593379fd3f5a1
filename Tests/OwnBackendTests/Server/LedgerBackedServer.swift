import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitHTTP
import EntitlementKitLedger
import EntitlementKitOwnBackend
import Foundation
import LoopbackHTTPServer
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loopback server running the article's ``EntitlementRoutes`` over a real `EntitlementLedger` with a
/// Google Play source (Play's documents are not signed, so tests can make them), the Play Developer API
/// played by ``PlayStoreDouble``, and sessions of the form `Bearer session-of-<app user id>`.
final class LedgerBackedServer: Sendable {
    static let packageName = "com.example.ownbackend"
    static let catalog = EntitlementCatalog(products: ["premium_monthly": .init(entitlementIds: ["premium"])])

    let ledger: EntitlementLedger
    let play: PlayStoreDouble
    let clock: MovableWallClock
    let server: LoopbackHTTPServer

    convenience init(restoreBehavior: RestoreBehavior = .transferToNewAppUserId, start: Date) throws {
        let clock = MovableWallClock(start)
        let ledger = EntitlementLedger(
            sources: [GooglePlayLedgerSource(catalog: Self.catalog, packageName: Self.packageName)],
            configuration: LedgerConfiguration(restoreBehavior: restoreBehavior))
        try self.init(ledger: ledger, clock: clock, now: { clock.now() })
    }

    /// A server over `ledger` whose routes take the instant a request arrived from `now`; the provider
    /// and clients it makes read `clock`.
    init(ledger: EntitlementLedger, clock: MovableWallClock, now: @escaping @Sendable () -> Date) throws {
        let play = PlayStoreDouble()
        let routes = EntitlementRoutes(
            ledger: ledger,
            authenticates: { headers, appUserId in
                headers.first { $0.key.lowercased() == "authorization" }?.value == "Bearer session-of-\(appUserId)"
            },
            fetch: { [play] _, token, _ in try play.document(for: token) },
            now: now)
        self.clock = clock
        self.ledger = ledger
        self.play = play
        server = try LoopbackHTTPServer { request, _ in Self.answer(request, with: routes) }
    }

    deinit {
        server.stop()
    }

    /// A provider for the app, whose session is the customer's, judged at `clock` (the server's by default).
    func provider(attempts: Int = 3, clock: (any WallClock)? = nil) throws -> OwnBackendProvider {
        let configuration = try OwnBackendProvider.Configuration(
            baseURL: server.baseURL,
            connection: HTTPConnectionOptions(
                requestTimeout: .seconds(30), retryPolicy: HTTPRetryPolicy(maximumAttempts: attempts),
                sleeper: RecordedWaits()))
        return OwnBackendProvider(
            configuration: configuration, requestHeaders: { ["Authorization": "Bearer session-of-\($0)"] },
            clock: clock ?? self.clock)
    }

    /// A client on a device whose clock is the server's.
    func client(appUserId: String? = nil) async throws -> EntitlementClient {
        try await EntitlementClient(
            provider: try provider(), cache: InMemoryEntitlementCache(), appUserId: appUserId, deviceClock: clock)
    }

    /// Posts a notification as Google's Pub/Sub (or, with `source` `appStore`, Apple) would; the server's
    /// answer.
    func push(_ body: String, source: LedgerSourceID = .googlePlay) async throws -> (status: Int, outcome: String?) {
        let url = server.baseURL.appendingPathComponent("notifications/" + source.rawValue)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let outcome = try? JSONNode(parsing: data).required("outcome").string()
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, outcome)
    }

    /// Runs the async routes for the server's (synchronous) handler thread, waiting at most 30 s.
    private static func answer(_ request: LoopbackHTTPServer.RecordedRequest, with routes: EntitlementRoutes)
        -> LoopbackHTTPServer.Reply
    {
        let answer = AnswerSlot()
        let done = DispatchSemaphore(value: 0)
        var headers: [String: String] = [:]
        for header in request.headers { headers[header.name] = header.value }
        let path = String(request.target.prefix { $0 != "?" })
        // The routes run on a queue of the server's own: a full suite can hold every cooperative thread
        // with work of its own for longer than a client waits, and the reply must not wait for one.
        Task(executorPreference: RouteExecutor.shared) { [headers] in
            answer.set(await routes.handle(method: request.method, path: path, headers: headers, body: request.body))
            done.signal()
        }
        guard done.wait(timeout: .now() + 30) == .success, let reply = answer.value else { return .drop }
        return .respond(status: reply.status, headers: [.init("Content-Type", "application/json")], body: reply.body)
    }
}

/// Runs the routes' tasks (and the default actors they call, such as the ledger) on a Dispatch queue
/// outside Swift's cooperative pool.
private final class RouteExecutor: TaskExecutor {
    static let shared = RouteExecutor()
    private let queue = DispatchQueue(label: "LedgerBackedServer.routes")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Where a route's answer waits for the server's thread.
private final class AnswerSlot: @unchecked Sendable {
    // Set by the task, read by the server's thread after the semaphore.
    private let lock = NSLock()
    private var answer: RouteAnswer?

    func set(_ value: RouteAnswer) { lock.withLock { answer = value } }
    var value: RouteAnswer? { lock.withLock { answer } }
}

/// The Play Developer API as the server sees it: the current `subscriptionsv2` document of each token.
final class PlayStoreDouble: @unchecked Sendable {
    // Set by the test, read by the server's fetches.
    private let lock = NSLock()
    private var documents: [String: Data] = [:]

    struct UnknownToken: Error {}

    func set(_ token: String, _ document: Data) { lock.withLock { documents[token] = document } }

    func document(for token: String) throws -> Data {
        guard let document = lock.withLock({ documents[token] }) else { throw UnknownToken() }
        return document
    }

    /// A `subscriptionsv2` purchase of `premium_monthly` written for these tests.
    static func subscription(
        expires: String, state: String = "SUBSCRIPTION_STATE_ACTIVE", autoRenew: Bool = true, isTest: Bool = false
    ) -> Data {
        var purchase: [String: JSONValue] = [
            "kind": .string("androidpublisher#subscriptionPurchaseV2"), "startTime": .string("2025-09-01T00:00:00Z"),
            "subscriptionState": .string(state),
            "lineItems": .array([
                .object([
                    "productId": .string("premium_monthly"), "expiryTime": .string(expires),
                    "autoRenewingPlan": .object(["autoRenewEnabled": .bool(autoRenew)]),
                    "latestSuccessfulOrderId": .string("GPA.3301-0000-0000-00001"),
                ])
            ]),
        ]
        if isTest { purchase["testPurchase"] = .object([:]) }
        return Data(JSONValue.object(purchase).compactText.utf8)
    }

    /// A Pub/Sub push of a real-time developer notification for `package`.
    static func push(_ notification: [String: JSONValue], messageId: String, package: String) -> String {
        var payload = notification
        payload["version"] = .string("1.0")
        payload["packageName"] = .string(package)
        payload["eventTimeMillis"] = .string("1757937600000")
        let data = Data(JSONValue.object(payload).compactText.utf8).base64EncodedString()
        return JSONValue.object([
            "message": .object([
                "data": .string(data), "messageId": .string(messageId), "publishTime": .string("2025-09-15T12:00:00Z"),
            ]),
            "subscription": .string("projects/example/subscriptions/play"),
        ]).compactText
    }

    /// A subscription notification (type 2, renewed) for `token`.
    static func renewed(_ token: String, messageId: String, package: String = LedgerBackedServer.packageName)
        -> String
    {
        push(
            [
                "subscriptionNotification": .object([
                    "version": .string("1.0"), "notificationType": .integer(2), "purchaseToken": .string(token),
                    "subscriptionId": .string("premium_monthly"),
                ])
            ], messageId: messageId, package: package)
    }

    /// A voided purchase (a full refund) of `token`.
    static func voided(_ token: String, messageId: String) -> String {
        push(
            [
                "voidedPurchaseNotification": .object([
                    "purchaseToken": .string(token), "orderId": .string("GPA.3301-0000-0000-00001"),
                    "productType": .integer(1), "refundType": .integer(1),
                ])
            ], messageId: messageId, package: LedgerBackedServer.packageName)
    }
}
