import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import LoopbackHTTPServer
import Testing

/// A server that never stops sending — no `Content-Length`, or chunks without a last one — is cut off at
/// the provider's size cap with a typed error, once (a response that large is not retried), and the call
/// returns: it neither buffers without end nor hangs.
@Suite(.timeLimit(.minutes(5))) struct EndlessResponseTests {
    static let cap = 64 * 1024

    static let connection = HTTPConnectionOptions(
        requestTimeout: .seconds(30),
        retryPolicy: HTTPRetryPolicy(
            maximumAttempts: 3, initialBackoff: .milliseconds(1), maximumBackoff: .milliseconds(1),
            maximumRetryAfter: .milliseconds(1)),
        maximumResponseBytes: cap, sleeper: NoWait())

    /// A well-formed start, so only the size can be what refuses it.
    static let revenueCatStart = Data(#"{"request_date": "2025-09-15T10:00:00Z", "pad": ""#.utf8)
    static let qonversionStart = Data(#"{"success": true, "pad": ""#.utf8)

    /// The provider's error for one endless reply, and what the server received.
    static func refusal(
        _ reply: LoopbackHTTPServer.Reply,
        ask: (LoopbackHTTPServer) throws -> (() async throws(EntitlementClientError) -> EntitlementSnapshot)
    ) async throws -> (error: EntitlementClientError?, requests: [LoopbackHTTPServer.RecordedRequest]) {
        let server = try LoopbackHTTPServer(lifetime: .seconds(120), replies: [reply])
        defer { server.stop() }
        let call = try ask(server)
        do {
            let snapshot = try await call()
            Issue.record("an endless response was accepted: \(snapshot)")
            return (nil, server.requests)
        } catch {
            return (error, server.requests)
        }
    }

    // One provider each way (no `Content-Length`; chunks without a last one): both go through the same
    // transport, and every cut-off is a task cancelled mid-body, which URLSession on Linux handles slowly.
    @Test(.timeLimit(.minutes(5)))
    func revenueCatRefusesABodyWithoutLengthThatNeverEnds() async throws {
        let (error, requests) = try await Self.refusal(
            .endless(status: 200, prefix: Self.revenueCatStart, chunked: false)
        ) { server in
            let provider = RevenueCatProvider(
                configuration: try RevenueCatProvider.Configuration(
                    apiKey: "appl_EndlessResponseTests", baseURL: server.baseURL, connection: Self.connection))
            return { () async throws(EntitlementClientError) in try await provider.snapshot(for: "alice") }
        }
        #expect(error?.code == .badResponse)
        #expect(error?.message == "GET /v1/subscribers/{id}: the response is larger than 65536 bytes")
        #expect(requests.count == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func qonversionRefusesChunksThatNeverEnd() async throws {
        let (error, requests) = try await Self.refusal(
            .endless(status: 200, prefix: Self.qonversionStart, chunked: true)
        ) { server in
            let provider = QonversionProvider(
                configuration: try QonversionProvider.Configuration(
                    projectKey: "PV77EndlessResponseTests", baseURL: server.baseURL, connection: Self.connection))
            // An anonymous id is the Qonversion user itself: one call, `POST /v1/user/init`.
            let userId = "QON_7f3a9c2e4b8d4f1a9e6c0b2d5a8f3e71"
            return { () async throws(EntitlementClientError) in try await provider.snapshot(for: userId) }
        }
        #expect(error?.code == .badResponse)
        #expect(error?.message == "POST /v1/user/init: the response is larger than 65536 bytes")
        #expect(requests.map(\.target) == ["/v1/user/init"])
    }
}
