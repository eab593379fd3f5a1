import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import LoopbackHTTPServer
import Testing

/// App user ids chosen to escape the request path: each is either refused before the network or sent as
/// exactly one percent-encoded path segment (asserted on what the loopback server received).
@Suite(.timeLimit(.minutes(5))) struct HostileIdTests {
    /// Id → the request target RevenueCat must receive (hand-encoded: UTF-8 bytes outside `A–Z a–z 0–9 - . _ ~`
    /// as `%XX`, and `.`/`..` alone encoded so no server resolves them as directories).
    static let encoded: [(id: String, target: String)] = [
        ("..", "/v1/subscribers/%2E%2E"),
        (".", "/v1/subscribers/%2E"),
        ("..%2F..%2Fadmin", "/v1/subscribers/..%252F..%252Fadmin"),
        ("%2e%2e", "/v1/subscribers/%252e%252e"),
        ("a?b=1&c", "/v1/subscribers/a%3Fb%3D1%26c"),
        ("a#fragment", "/v1/subscribers/a%23fragment"),
        ("a b", "/v1/subscribers/a%20b"),
        ("line\nbreak", "/v1/subscribers/line%0Abreak"),
        ("cr\rlf", "/v1/subscribers/cr%0Dlf"),
        ("tab\there", "/v1/subscribers/tab%09here"),
        ("名前", "/v1/subscribers/%E5%90%8D%E5%89%8D"),
        ("😀", "/v1/subscribers/%F0%9F%98%80"),
        ("back\\slash", "/v1/subscribers/back%5Cslash"),
        ("semi;colon", "/v1/subscribers/semi%3Bcolon"),
    ]

    static func provider(_ server: LoopbackHTTPServer) throws -> RevenueCatProvider {
        let connection = HTTPConnectionOptions(
            requestTimeout: .seconds(5),
            retryPolicy: HTTPRetryPolicy(
                maximumAttempts: 1, initialBackoff: .milliseconds(1), maximumBackoff: .milliseconds(1),
                maximumRetryAfter: .milliseconds(1)),
            maximumResponseBytes: 64 * 1024, sleeper: NoWait())
        return RevenueCatProvider(
            configuration: try RevenueCatProvider.Configuration(
                apiKey: "appl_HostileIdTests", baseURL: server.baseURL, platform: "iOS", connection: connection))
    }

    @Test(arguments: encoded)
    func anIdIsOnePercentEncodedPathSegment(_ hostile: (id: String, target: String)) async throws {
        let server = try LoopbackHTTPServer(replies: [.json(404, #"{"code": 7259, "message": "not found"}"#)])
        defer { server.stop() }
        _ = try? await Self.provider(server).snapshot(for: hostile.id)
        #expect(server.requests.map(\.target) == [hostile.target])
    }

    @Test(arguments: ["a/b", "../admin", "/", "a\u{0}b", ""])
    func anIdThatCannotBeOneSegmentNeverReachesTheNetwork(_ id: String) async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let provider = try Self.provider(server)
        do {
            _ = try await provider.snapshot(for: id)
            Issue.record("\(id.debugDescription) was accepted")
        } catch {
            #expect(error.code == .invalidAppUserId)
        }
        #expect(server.requests.isEmpty)
    }
}

/// Retries in these tests never wait.
struct NoWait: RetrySleeper {
    func sleep(for duration: Duration) async {}
}

/// Qonversion carries app user ids in JSON bodies, never in the path: whatever an id holds, the calls go to
/// exactly `POST /v2/identities` then `POST /v1/user/init`, and the body carries the id unchanged (asserted
/// on what the loopback server received). Ids no backend takes are refused before the network.
@Suite(.timeLimit(.minutes(5))) struct QonversionHostileIdTests {
    static let userId = "QON_0c1d2e3f40516273849a5b6c7d8e9f01"

    /// Two calls per id and many ids at once: a connection the loaded machine drops is retried (the
    /// server answers by path, so a retry gets the right reply).
    static func provider(_ server: LoopbackHTTPServer) throws -> QonversionProvider {
        let connection = HTTPConnectionOptions(
            requestTimeout: .seconds(10),
            retryPolicy: HTTPRetryPolicy(
                maximumAttempts: 3, initialBackoff: .milliseconds(1), maximumBackoff: .milliseconds(1),
                maximumRetryAfter: .milliseconds(1)),
            maximumResponseBytes: 64 * 1024, sleeper: NoWait())
        return QonversionProvider(
            configuration: try QonversionProvider.Configuration(
                projectKey: "PV77HostileIdTests", baseURL: server.baseURL, platform: "iOS", connection: connection))
    }

    static let hostile = HostileIdTests.encoded.map(\.id) + ["%", "a%00b", "?", "#", "a\r\nHost: evil.example"]

    @Test(arguments: hostile)
    func anIdNeverChangesTheRequestPathAndReachesTheBodyUnchanged(_ id: String) async throws {
        // A lifetime past the default 30 s: 19 cases of two calls each share a loaded machine.
        let server = try LoopbackHTTPServer(lifetime: .seconds(120)) { request, _ in
            request.target == "/v2/identities"
                ? .json(200, #"{"data": {"anon_id": "\#(Self.userId)"}}"#)
                : .json(200, #"{"success": true, "data": {"uid": "\#(Self.userId)", "permissions": []}}"#)
        }
        defer { server.stop() }
        let snapshot = try await Self.provider(server).snapshot(for: id)
        #expect(snapshot.appUserId == id)
        let requests = server.requests
        #expect(requests.first?.target == "/v2/identities")
        #expect(requests.last?.target == "/v1/user/init")
        #expect(requests.allSatisfy { ["/v2/identities", "/v1/user/init"].contains($0.target) })
        #expect(requests.allSatisfy { $0.header("Host") == "127.0.0.1:\(server.port)" })
        let identify = try #require(requests.first)
        #expect(try JSONNode(parsing: identify.body).required("identity_id").string() == id)
        // Compared byte for byte: a canonically equivalent spelling would be another customer.
        #expect(Array(try JSONNode(parsing: identify.body).required("identity_id").string().utf8) == Array(id.utf8))
    }

    @Test(arguments: ["a/b", "../admin", "/", "a\u{0}b", ""])
    func anIdNoBackendTakesNeverReachesTheNetwork(_ id: String) async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let provider = try Self.provider(server)
        do {
            _ = try await provider.snapshot(for: id)
            Issue.record("\(id.debugDescription) was accepted")
        } catch {
            #expect(error.code == .invalidAppUserId)
        }
        #expect(server.requests.isEmpty)
    }
}
