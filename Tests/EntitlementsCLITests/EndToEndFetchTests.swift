import Foundation
import LoopbackHTTPServer
import Testing

/// `entitlements fetch`, run as a user would, against the loopback server.
@Suite(.timeLimit(.minutes(5))) struct EndToEndFetchTests {
    static let revenueCatKey = "appl_CLI-UNIQUE-KEY-4d1f"
    static let qonversionKey = "PV77CLI-UNIQUE-KEY-4d1f"
    static let adaptyKey = "public_live_CLI-UNIQUE-KEY-4d1f"

    /// Runs the tool with the given key variables (and no others from the environment).
    static func fetch(_ arguments: [String], environment: [String: String]) async throws -> EntitlementsTool.Result {
        var variables: [String: String?] = [
            "REVENUECAT_API_KEY": nil, "QONVERSION_PROJECT_KEY": nil, "ADAPTY_PUBLIC_SDK_KEY": nil,
        ]
        for (name, value) in environment { variables[name] = value }
        let result = try await EntitlementsTool.run(["fetch"] + arguments, environment: variables)
        for key in [revenueCatKey, qonversionKey, adaptyKey] {
            #expect(!result.stdout.contains(key) && !result.stderr.contains(key), "the key was printed")
        }
        return result
    }

    static func revenueCat(_ server: LoopbackHTTPServer, id: String = "user_48213") async throws
        -> EntitlementsTool.Result
    {
        try await fetch(
            [
                "--provider", "revenuecat", "--app-user-id", id, "--base-url", server.baseURL.absoluteString, "--at",
                "2025-09-15T10:00:00Z",
            ], environment: ["REVENUECAT_API_KEY": revenueCatKey])
    }

    static func fixture(_ path: String) async throws -> String {
        try EntitlementsTool.repositoryFile("Fixtures/" + path)
    }

    @Test func revenueCatPrintsWhatConvertPrintsForTheSameBody() async throws {
        let server = try await LoopbackHTTPServer(replies: [
            .json(200, try Self.fixture("revenuecat/active-monthly.json"))
        ])
        defer { server.stop() }
        let fetched = try await Self.revenueCat(server)
        let converted = try await EntitlementsTool.run([
            "convert", "--at", "2025-09-15T10:00:00Z", "Fixtures/revenuecat/active-monthly.json",
        ])
        #expect(fetched.status == 0)
        #expect(fetched.stderr.isEmpty)
        #expect(fetched.stdout == converted.stdout)
        #expect(server.requests.map(\.target) == ["/v1/subscribers/user_48213"])
        #expect(server.requests.first?.header("Authorization") == "Bearer " + Self.revenueCatKey)
    }

    @Test func qonversionPrintsWhatConvertPrintsForTheSameBody() async throws {
        let server = try await LoopbackHTTPServer(replies: [.json(200, try Self.fixture("qonversion/active.json"))])
        defer { server.stop() }
        let fetched = try await Self.fetch(
            [
                "--provider", "Qonversion", "--app-user-id", "QON_7f3a9c2e4b8d4f1a9e6c0b2d5a8f3e71", "--base-url",
                server.baseURL.absoluteString, "--at", "2025-06-01T12:00:00Z",
            ], environment: ["QONVERSION_PROJECT_KEY": Self.qonversionKey])
        let converted = try await EntitlementsTool.run([
            "convert", "--at", "2025-06-01T12:00:00Z", "Fixtures/qonversion/active.json",
        ])
        #expect(fetched.status == 0)
        #expect(fetched.stdout == converted.stdout)
        #expect(server.requests.map(\.target) == ["/v1/user/init"])
    }

    @Test func backendFailuresMapToSysexits() async throws {
        let cases: [(LoopbackHTTPServer.Reply, Int32, String)] = [
            (
                .text(200, "<html>captive portal</html>"), 65,
                "error: badResponse: GET /v1/subscribers/{id}: HTTP 200 body refused"
            ),
            (
                .json(401, #"{"code": 7225, "message": "Invalid API Key."}"#), 77,
                "error: credentialsRefused: GET /v1/subscribers/{id}: the backend refused the API key: HTTP 401 (7225: Invalid API Key.)"
            ),
            (
                .json(503, "{}", headers: [.init("Retry-After", "0")]), 69,
                "error: backendUnavailable: GET /v1/subscribers/{id}: the backend is unavailable: HTTP 503 after 3 attempts"
            ),
            (.drop, 69, "error: offline: GET /v1/subscribers/{id}:"),
        ]
        for (reply, status, prefix) in cases {
            let server = try LoopbackHTTPServer(replies: [reply])
            defer { server.stop() }
            let result = try await Self.revenueCat(server)
            #expect(result.status == status, "\(reply)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
        }
    }

    @Test func usageErrorsNeverReachTheNetwork() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        let secret = try await Self.fetch(
            ["--provider", "revenuecat", "--app-user-id", "alice", "--base-url", base],
            environment: ["REVENUECAT_API_KEY": "sk_CLI-UNIQUE-KEY-4d1f"])
        #expect(secret.status == 64)
        #expect(secret.stderr.contains("refused a secret API key"))
        #expect(!secret.stderr.contains("CLI-UNIQUE-KEY"))

        let badId = try await Self.revenueCat(server, id: "null")
        #expect(badId.status == 64)
        #expect(badId.stderr.hasPrefix("error: invalidAppUserId: app user id \"null\""))

        let missing = try await Self.fetch(["--provider", "qonversion", "--app-user-id", "alice"], environment: [:])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("error: QONVERSION_PROJECT_KEY is not set"))

        let insecure = try await Self.fetch(
            ["--provider", "revenuecat", "--app-user-id", "alice", "--base-url", "http://api.example.com/"],
            environment: ["REVENUECAT_API_KEY": Self.revenueCatKey])
        #expect(insecure.status == 64)
        #expect(insecure.stderr.contains("use https"))

        let noId = try await Self.fetch(
            ["--provider", "revenuecat"], environment: ["REVENUECAT_API_KEY": Self.revenueCatKey])
        #expect(noId.status == 64)
        #expect(server.requests.isEmpty)
    }

    static func adapty(_ server: LoopbackHTTPServer, id: String, extra: [String] = [], key: String = adaptyKey)
        async throws -> EntitlementsTool.Result
    {
        try await fetch(
            [
                "--provider", "adapty", "--app-user-id", id, "--base-url", server.baseURL.absoluteString, "--at",
                "2025-06-01T12:00:00Z",
            ] + extra, environment: ["ADAPTY_PUBLIC_SDK_KEY": key])
    }

    @Test func adaptyIdentifiesTheCustomerAndPrintsWhatConvertPrintsForTheSameBody() async throws {
        let server = try await LoopbackHTTPServer(replies: [
            .json(200, try Self.fixture("adapty/sdk-envelope-active-monthly.json"))
        ])
        defer { server.stop() }
        let fetched = try await Self.adapty(server, id: "mara@example.org")
        let converted = try await EntitlementsTool.run([
            "convert", "--at", "2025-06-01T12:00:00Z", "Fixtures/adapty/sdk-envelope-active-monthly.json",
        ])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stderr.isEmpty)
        #expect(fetched.stdout == converted.stdout)
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.target.hasPrefix("/api/v1/sdk/analytics/profiles/"))
        #expect(request.header("Authorization") == "Api-Key " + Self.adaptyKey)
        #expect(request.bodyText.contains(#""customer_user_id":"mara@example.org""#))
    }

    @Test func adaptyReadsAnAnonymousProfileByItsId() async throws {
        let profileId = "5b1f6c2e-0d4a-4e8b-9a77-3c2d1e0f9a10"
        let server = try await LoopbackHTTPServer(replies: [
            .json(200, try Self.fixture("adapty/sdk-envelope-active-monthly.json"))
        ])
        defer { server.stop() }
        let fetched = try await Self.adapty(server, id: profileId)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.contains(#""appUserId" : "\#(profileId)""#) || fetched.stdout.contains(profileId))
        #expect(server.requests.map(\.method) == ["GET"])
        #expect(server.requests.map(\.target) == ["/api/v1/sdk/analytics/profiles/\(profileId)/"])
    }

    @Test func adaptyFailuresMapToSysexitsAndItsSecretKeyIsAUsageError() async throws {
        let cases: [(LoopbackHTTPServer.Reply, Int32, String)] = [
            (
                .json(401, #"{"error_code": "not_authenticated"}"#), 77,
                "error: credentialsRefused: GET /api/v1/sdk/analytics/profiles/{profile_id}/: the backend refused the API key: HTTP 401 (not_authenticated)"
            ),
            (
                .json(444, "{}"), 69,
                "error: backendUnavailable: GET /api/v1/sdk/analytics/profiles/{profile_id}/: the backend has blocked requests for a while: HTTP 444"
            ),
            (.text(200, "<html>captive portal</html>"), 65, "error: badResponse: GET /api/v1/sdk/analytics/profiles/"),
        ]
        for (reply, status, prefix) in cases {
            let server = try LoopbackHTTPServer(replies: [reply])
            defer { server.stop() }
            let result = try await Self.adapty(server, id: "5b1f6c2e-0d4a-4e8b-9a77-3c2d1e0f9a10")
            #expect(result.status == status, "\(reply)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
        }
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let secret = try await Self.adapty(server, id: "alice", key: "secret_live_CLI-UNIQUE-KEY-4d1f")
        #expect(secret.status == 64)
        #expect(secret.stderr.contains("refused a secret API key (secret_…)"))
        #expect(!secret.stderr.contains("CLI-UNIQUE-KEY"))
        let missing = try await Self.fetch(["--provider", "adapty", "--app-user-id", "alice"], environment: [:])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("error: ADAPTY_PUBLIC_SDK_KEY is not set"))
        #expect(server.requests.isEmpty)
    }

    @Test func adaptyCanBeTheShadow() async throws {
        let adapty = try await LoopbackHTTPServer(replies: [
            .json(200, try Self.fixture("adapty/sdk-envelope-active-monthly.json"))
        ])
        defer { adapty.stop() }
        let revenueCat = try await LoopbackHTTPServer(replies: [
            .json(200, try Self.fixture("revenuecat/active-monthly.json"))
        ])
        defer { revenueCat.stop() }
        let result = try await Self.fetch(
            [
                "--provider", "revenuecat", "--app-user-id", "mara@example.org", "--base-url",
                revenueCat.baseURL.absoluteString, "--shadow", "adapty", "--shadow-base-url",
                adapty.baseURL.absoluteString, "--at", "2025-06-01T12:00:00Z",
            ], environment: ["REVENUECAT_API_KEY": Self.revenueCatKey, "ADAPTY_PUBLIC_SDK_KEY": Self.adaptyKey])
        #expect([0, 1].contains(result.status), "\(result.stderr)")
        #expect(!result.stderr.contains("shadow: adapty:"), "\(result.stderr)")
        #expect(revenueCat.requests.count == 1)
        #expect(adapty.requests.first?.header("Authorization") == "Api-Key " + Self.adaptyKey)
    }
}
