import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitRevenueCat
import Foundation
import LoopbackHTTPServer
import Testing

/// Retries, timeouts, size cap and broken answers, against the loopback server (through the RevenueCat
/// provider; the transport is shared by both providers).
@Suite(.timeLimit(.minutes(5))) struct TransportBehaviourTests {
    static func failure(
        _ replies: [LoopbackHTTPServer.Reply], attempts: Int = 3, timeout: Duration = .seconds(5),
        maximumBytes: Int = 64 * 1024
    ) async throws -> (error: EntitlementClientError?, server: LoopbackHTTPServer, waits: [Duration]) {
        let server = try LoopbackHTTPServer(replies: replies)
        defer { server.stop() }
        let sleeper = RecordingSleeper()
        let configuration = try RevenueCatProvider.Configuration(
            apiKey: "appl_transport", baseURL: server.baseURL,
            connection: TestFixtures.options(
                attempts: attempts, timeout: timeout, maximumBytes: maximumBytes, sleeper: sleeper))
        let provider = RevenueCatProvider(configuration: configuration)
        do {
            _ = try await provider.snapshot(for: "alice")
            return (nil, server, sleeper.waits)
        } catch {
            return (error, server, sleeper.waits)
        }
    }

    static let good: LoopbackHTTPServer.Reply = .json(
        200,
        #"{"request_date": "2025-09-15T10:00:00Z", "subscriber": {"original_app_user_id": "alice", "first_seen": "2025-01-01T00:00:00Z", "subscriptions": {}, "entitlements": {}}}"#
    )

    @Test func fiveHundredsAreRetriedWithJitteredExponentialBackoffUntilAnAnswer() async throws {
        let result = try await Self.failure([.text(500, "oops"), .text(502, "bad gateway"), Self.good])
        #expect(result.error == nil)
        #expect(result.server.requests.count == 3)
        #expect(result.waits.count == 2)
        #expect(result.waits[0] >= .milliseconds(200) && result.waits[0] <= .milliseconds(400))
        #expect(result.waits[1] >= .milliseconds(400) && result.waits[1] <= .milliseconds(800))
    }

    @Test func fiveHundredsPastTheAttemptsAreBackendUnavailableNamingTheStatus() async throws {
        let result = try await Self.failure([.revenueCatError(503, code: 7110, message: "Internal server error.")])
        let error = try #require(result.error)
        #expect(error.code == .backendUnavailable)
        #expect(error.httpStatus == 503)
        #expect(error.vendorCode == "7110")
        #expect(error.message.contains("HTTP 503 after 3 attempts"))
        #expect(result.server.requests.count == 3)
        #expect(result.waits.count == 2)
    }

    @Test func retryAfterIsHonouredExactly() async throws {
        let limited: LoopbackHTTPServer.Reply = .json(429, "{}", headers: [.init("Retry-After", "3")])
        let result = try await Self.failure([limited, Self.good])
        #expect(result.error == nil)
        #expect(result.waits == [.seconds(3)])
        #expect(result.server.requests.count == 2)
    }

    @Test func a429PastTheAttemptsIsBackendUnavailable() async throws {
        let limited: LoopbackHTTPServer.Reply = .json(429, "{}", headers: [.init("Retry-After", "1")])
        let result = try await Self.failure([limited], attempts: 2)
        #expect(result.error?.code == .backendUnavailable)
        #expect(result.error?.httpStatus == 429)
        #expect(result.waits == [.seconds(1)])
        #expect(result.server.requests.count == 2)
    }

    @Test func aRetryAfterBeyondTheCapEndsTheRetriesAtOnce() async throws {
        let limited: LoopbackHTTPServer.Reply = .json(429, "{}", headers: [.init("Retry-After", "3600")])
        let result = try await Self.failure([limited, Self.good])
        #expect(result.error?.code == .backendUnavailable)
        #expect(result.waits.isEmpty)
        #expect(result.server.requests.count == 1)
    }

    @Test func otherClientErrorsAreNotRetried() async throws {
        let result = try await Self.failure([.text(404, "<html>Not Found</html>"), Self.good])
        #expect(result.error?.code == .badResponse)
        #expect(result.error?.httpStatus == 404)
        #expect(result.server.requests.count == 1)
        #expect(result.waits.isEmpty)
    }

    @Test func aSlowReplyTimesOutAndIsOfflineAfterTheAttempts() async throws {
        let result = try await Self.failure([.stall], attempts: 2, timeout: .milliseconds(200))
        let error = try #require(result.error)
        #expect(error.code == .offline)
        #expect(error.httpStatus == nil)
        #expect(error.message.contains("timed out"))
        #expect(error.message.contains("after 2 attempts"))
        // The second attempt may time out before the server has read its request on a loaded machine.
        #expect((1...2).contains(result.server.requests.count))
        #expect(result.waits.count == 1)
    }

    @Test func aDroppedConnectionIsRetriedThenOffline() async throws {
        let result = try await Self.failure([.drop])
        #expect(result.error?.code == .offline)
        #expect(result.server.requests.count == 3)
        #expect(result.waits.count == 2)
    }

    @Test func aDroppedConnectionThenAnAnswerSucceeds() async throws {
        let result = try await Self.failure([.drop, Self.good])
        #expect(result.error == nil)
        #expect(result.server.requests.count == 2)
    }

    @Test func nothingListeningIsOffline() async throws {
        let server = try LoopbackHTTPServer(replies: [])
        let base = server.baseURL
        server.stop()
        // The listener closes within its 20 ms poll; wait for it by polling the port (bounded).
        let sleeper = RecordingSleeper()
        let configuration = try RevenueCatProvider.Configuration(
            apiKey: "appl_transport", baseURL: base, connection: TestFixtures.options(attempts: 2, sleeper: sleeper))
        var lastCode: EntitlementClientError.Code?
        for _ in 0..<50 {
            do {
                _ = try await RevenueCatProvider(configuration: configuration).snapshot(for: "alice")
            } catch {
                lastCode = error.code
                if error.code == .offline { break }
            }
        }
        #expect(lastCode == .offline)
    }

    @Test func anHTMLBodyIsABadResponseCarryingTheDocumentError() async throws {
        let result = try await Self.failure([.text(200, "<html><body>Proxy login</body></html>")])
        let error = try #require(result.error)
        #expect(error.code == .badResponse)
        #expect(error.httpStatus == 200)
        #expect(error.documentError != nil)
        #expect(result.server.requests.count == 1)
    }

    @Test func aBodyTheAdapterRefusesIsABadResponseNamingThePath() async throws {
        let result = try await Self.failure([.json(200, #"{"subscriber": {}}"#)])
        let error = try #require(result.error)
        #expect(error.code == .badResponse)
        #expect(error.documentError?.path.description == "request_date")
        #expect(error.message.hasPrefix("GET /v1/subscribers/{id}: HTTP 200 body refused: request_date"))
    }

    @Test func aBodyCutShortOfItsContentLengthIsNeverAccepted() async throws {
        let body = Data(#"{"request_date": "2025-09-15T10:00:00Z", "subscriber": {"#.utf8)
        let result = try await Self.failure([.truncated(status: 200, declaredLength: 4000, body: body)])
        let error = try #require(result.error)
        // The connection ended before the declared body: a connection failure, retried, then offline.
        #expect(error.code == .offline)
        #expect(result.server.requests.count == 3)
    }

    @Test func aCloseDelimitedTruncatedBodyIsABadResponse() async throws {
        let body = Data(#"{"request_date": "2025-09-15T10:00:00Z", "subscriber": {"#.utf8)
        let result = try await Self.failure([.closeDelimited(status: 200, body: body)])
        #expect(result.error?.code == .badResponse)
        #expect(result.error?.documentError != nil)
    }

    @Test func anOversizedBodyIsRefusedWithoutRetry() async throws {
        let padding = String(repeating: " ", count: 200 * 1024)
        let big = #"{"request_date": "2025-09-15T10:00:00Z", "pad": "\#(padding)"}"#
        let declared = try await Self.failure([.json(200, big)], maximumBytes: 64 * 1024)
        #expect(declared.error?.code == .badResponse)
        #expect(declared.error?.message.contains("larger than 65536 bytes") == true)
        #expect(declared.server.requests.count == 1)

        let undeclared = try await Self.failure([.closeDelimited(status: 200, body: Data(big.utf8))])
        #expect(undeclared.error?.code == .badResponse)
        #expect(undeclared.error?.message.contains("larger than 65536 bytes") == true)
    }

    @Test func redirectsAreNotFollowed() async throws {
        let redirect: LoopbackHTTPServer.Reply = .respond(
            status: 302, headers: [.init("Location", "http://127.0.0.1:1/steal")], body: Data())
        let result = try await Self.failure([redirect, Self.good])
        #expect(result.error?.code == .badResponse)
        #expect(result.error?.httpStatus == 302)
        #expect(result.server.requests.count == 1)
    }

    @Test func cookiesAreNeitherStoredNorSent() async throws {
        let setCookie: LoopbackHTTPServer.Reply = .json(
            503, "{}", headers: [.init("Set-Cookie", "session=abc; Path=/"), .init("Retry-After", "0")])
        let result = try await Self.failure([setCookie, Self.good])
        #expect(result.error == nil)
        #expect(result.server.requests.count == 2)
        #expect(result.server.requests.allSatisfy { $0.header("Cookie") == nil })
    }

    @Test func cancellingTheTaskEndsAStalledRequestWithoutRetrying() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Int.self)
        let server = try LoopbackHTTPServer { _, index in
            arrived.yield(index)
            return .stall
        }
        defer { server.stop() }
        let sleeper = RecordingSleeper()
        let configuration = try RevenueCatProvider.Configuration(
            apiKey: "appl_transport", baseURL: server.baseURL,
            connection: TestFixtures.options(attempts: 3, timeout: .seconds(300), sleeper: sleeper))
        let provider = RevenueCatProvider(configuration: configuration)
        let request = Task { () async throws(EntitlementClientError) -> EntitlementSnapshot in
            try await provider.snapshot(for: "alice")
        }
        for await _ in arrivals { break }
        request.cancel()
        let outcome = await request.result
        guard case .failure(let failure) = outcome, let error = failure as? EntitlementClientError else {
            Issue.record("a cancelled request answered")
            return
        }
        #expect(error.code == .offline)
        #expect(error.message.contains("cancelled"))
        #expect(sleeper.waits.isEmpty)
        #expect(server.requests.count == 1)
    }
}
