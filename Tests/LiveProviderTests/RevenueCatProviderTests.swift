import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitRevenueCat
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct RevenueCatProviderTests {
    static let key = "appl_PublicKeyForTests"

    static func provider(
        _ server: LoopbackHTTPServer, sleeper: RecordingSleeper = RecordingSleeper(), attempts: Int = 3,
        platform: String? = "iOS", logger: EntitlementLogger = .disabled
    ) throws -> RevenueCatProvider {
        let configuration = try RevenueCatProvider.Configuration(
            apiKey: key, baseURL: server.baseURL, platform: platform,
            connection: TestFixtures.options(attempts: attempts, sleeper: sleeper))
        return RevenueCatProvider(configuration: configuration, logger: logger)
    }

    @Test func getsTheSubscriberWithTheBearerKeyAndPlatformAndMapsItThroughTheAdapter() async throws {
        let body = try TestFixtures.document("revenuecat", "active-monthly")
        let server = try LoopbackHTTPServer(replies: [.json(200, body)])
        defer { server.stop() }
        let snapshot = try await Self.provider(server).snapshot(for: "user_48213")

        let expected = try RevenueCatAdapter().snapshot(from: Data(body.utf8), at: Date())
        #expect(snapshot.entitlements.keys.sorted() == expected.entitlements.keys.sorted())
        #expect(snapshot["pro"]?.expirationDate == expected["pro"]?.expirationDate)
        #expect(snapshot.appUserId == "user_48213")
        #expect(snapshot.requestDate == RFC3339.date(from: "2025-09-15T10:00:00Z"))
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/v1/subscribers/user_48213")
        #expect(request.header("Authorization") == "Bearer " + Self.key)
        #expect(request.header("X-Platform") == "iOS")
        #expect(request.header("Accept") == "application/json")
        #expect(request.body.isEmpty)
    }

    @Test func encodesTheIdAsOnePathSegment() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .json(200, try TestFixtures.document("revenuecat", "active-monthly"))
        ])
        defer { server.stop() }
        _ = try await Self.provider(server).snapshot(for: "a b?c#d%e&f=g+h..é")
        _ = try await Self.provider(server).snapshot(for: "..")
        _ = try await Self.provider(server).snapshot(for: "%2F")
        #expect(
            server.requests.map(\.target) == [
                "/v1/subscribers/a%20b%3Fc%23d%25e%26f%3Dg%2Bh..%C3%A9", "/v1/subscribers/%2E%2E",
                "/v1/subscribers/%252F",
            ])
    }

    @Test func anIdTheBackendRefusesNeverReachesTheNetwork() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let provider = try Self.provider(server)
        for id in ["", "  ", "a/b", "null", String(repeating: "x", count: 101)] {
            await #expect(throws: EntitlementClientError.self) { _ = try await provider.snapshot(for: id) }
            do {
                _ = try await provider.snapshot(for: id)
            } catch {
                #expect(error.code == .invalidAppUserId)
            }
        }
        #expect(server.requests.isEmpty)
    }

    @Test func logInPostsIdentifyAndReadsCreatedFrom201() async throws {
        let body = try TestFixtures.document("revenuecat", "active-monthly")
        let server = try LoopbackHTTPServer(replies: [.json(201, body), .json(200, body)])
        defer { server.stop() }
        let provider = try Self.provider(server)
        let anonymous = provider.makeAnonymousAppUserId()
        let first = try await provider.logIn(from: anonymous, to: "alice")
        let second = try await provider.logIn(from: anonymous, to: "alice")
        #expect(first.created)
        #expect(!second.created)
        #expect(first.snapshot.appUserId == "alice")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/subscribers/identify")
        #expect(request.header("Content-Type") == "application/json")
        let sent = try JSONNode(parsing: request.body).value
        #expect(sent == .object(["app_user_id": .string(anonymous), "new_app_user_id": .string("alice")]))
    }

    @Test func restoresAndPurchasesPostReceiptsWithTheStoresPlatform() async throws {
        let body = try TestFixtures.document("revenuecat", "active-monthly")
        let server = try LoopbackHTTPServer(replies: [.json(200, body)])
        defer { server.stop() }
        let provider = try Self.provider(server, platform: nil)
        _ = try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "MIIT…receipt"), for: "alice")
        _ = try await provider.reportPurchase(
            StorePurchase(receipt: StoreReceipt(store: .playStore, token: "play-token"), productId: "gold"),
            for: "alice")
        let requests = server.requests
        #expect(requests.map(\.target) == ["/v1/receipts", "/v1/receipts"])
        #expect(requests.map { $0.header("X-Platform") } == ["iOS", "android"])
        #expect(
            try JSONNode(parsing: requests[0].body).value
                == .object([
                    "fetch_token": .string("MIIT…receipt"), "app_user_id": .string("alice"), "is_restore": .bool(true),
                ]))
        #expect(
            try JSONNode(parsing: requests[1].body).value
                == .object([
                    "fetch_token": .string("play-token"), "app_user_id": .string("alice"), "is_restore": .bool(false),
                    "product_ids": .array([.string("gold")]),
                ]))
    }

    @Test func aReceiptInUseByAnotherCustomerIsItsOwnError() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .revenueCatError(409, code: 7102, message: "The receipt is in use by another subscriber.")
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        do {
            _ = try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "r"), for: "bob")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .receiptInUseByOtherUser)
            #expect(error.httpStatus == 409)
            #expect(error.vendorCode == "7102")
            #expect(error.message.contains("The receipt is in use by another subscriber."))
        }
        #expect(server.requests.count == 1)
    }

    @Test func aRefusedKeyIsCredentialsRefusedNamingStatusAndVendorCodeWithoutRetry() async throws {
        let server = try LoopbackHTTPServer(replies: [.revenueCatError(401, code: 7225, message: "Invalid API Key.")])
        defer { server.stop() }
        let sleeper = RecordingSleeper()
        let provider = try Self.provider(server, sleeper: sleeper)
        do {
            _ = try await provider.snapshot(for: "alice")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .credentialsRefused)
            #expect(error.httpStatus == 401)
            #expect(error.vendorCode == "7225")
            #expect(
                error.description
                    == "credentialsRefused: GET /v1/subscribers/{id}: the backend refused the API key: HTTP 401 (7225: Invalid API Key.)"
            )
        }
        #expect(server.requests.count == 1)
        #expect(sleeper.waits.isEmpty)
    }

    @Test func aVendorMessageCannotDriveTheTerminal() async throws {
        let body = #"{"code": 7225, "message": "Invalid \u001b[31mkey\u0007\nsecond line\tend"}"#
        let server = try LoopbackHTTPServer(replies: [.json(401, body)])
        defer { server.stop() }
        let provider = try Self.provider(server, sleeper: RecordingSleeper())
        do {
            _ = try await provider.snapshot(for: "alice")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasSuffix("HTTP 401 (7225: Invalid ?[31mkey? second line?end)"))
        }
    }

    @Test func anonymousIdsHaveRevenueCatsFormAndComeFromTheInjectedGenerator() throws {
        let configuration = try RevenueCatProvider.Configuration(apiKey: Self.key)
        let first = RevenueCatProvider(configuration: configuration, randomNumberGenerator: SplitMix64(seed: 7))
        let again = RevenueCatProvider(configuration: configuration, randomNumberGenerator: SplitMix64(seed: 7))
        let id = first.makeAnonymousAppUserId()
        #expect(id == again.makeAnonymousAppUserId())
        #expect(id.hasPrefix("$RCAnonymousID:"))
        #expect(id.count == 47)
        #expect(id.dropFirst(15).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(first.isAnonymous(id))
        #expect(!first.isAnonymous("alice"))
        #expect(first.makeAnonymousAppUserId() != id)

        let system = RevenueCatProvider(configuration: configuration)
        #expect(system.isAnonymous(system.makeAnonymousAppUserId()))
        #expect(system.makeAnonymousAppUserId() != system.makeAnonymousAppUserId())
    }

    @Test func theBackendsInvalidAppUserIdCodeIsInvalidAppUserId() async throws {
        let server = try LoopbackHTTPServer(replies: [.revenueCatError(400, code: 7220, message: "Empty app user id.")])
        defer { server.stop() }
        let provider = try Self.provider(server)
        do {
            _ = try await provider.snapshot(for: "alice")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidAppUserId)
            #expect(error.httpStatus == 400)
            #expect(error.vendorCode == "7220")
        }
    }

    @Test func aProxyBasePathPrefixesEveryRequestAndNoPlatformSendsNoHeader() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .json(200, try TestFixtures.document("revenuecat", "active-monthly"))
        ])
        defer { server.stop() }
        let configuration = try RevenueCatProvider.Configuration(
            apiKey: Self.key, baseURL: server.baseURL.appendingPathComponent("proxy/rc"), platform: nil,
            connection: TestFixtures.options(sleeper: RecordingSleeper()))
        _ = try await RevenueCatProvider(configuration: configuration).snapshot(for: "alice")
        let request = try #require(server.requests.first)
        #expect(request.target == "/proxy/rc/v1/subscribers/alice")
        #expect(request.header("X-Platform") == nil)
    }

    @Test func retriesAreLoggedWithoutIds() async throws {
        let body = try TestFixtures.document("revenuecat", "active-monthly")
        let server = try LoopbackHTTPServer(replies: [.text(500, "oops"), .json(200, body)])
        defer { server.stop() }
        let recorder = LogRecorder()
        _ = try await Self.provider(server, logger: recorder.logger).snapshot(for: "secret-customer-42")
        let lines = recorder.records.map(\.description)
        #expect(lines.contains { $0.hasPrefix("warning: GET /v1/subscribers/{id}: HTTP 500; retrying in ") })
        #expect(lines.contains("debug: GET /v1/subscribers/{id}: attempt 2 of 3"))
        #expect(!lines.contains { $0.contains("secret-customer-42") })
    }

    @Test func theRequestTimeHeaderIsTheServerTimeAsInRevenueCatsSDKs() async throws {
        let body = try TestFixtures.document("revenuecat", "active-monthly")
        let server = try LoopbackHTTPServer(replies: [
            .json(200, body, headers: [.init("X-RevenueCat-Request-Time", "1757935800000")]),
            .json(200, body, headers: [.init("X-RevenueCat-Request-Time", "soon")]),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        let fromHeader = try await provider.snapshot(for: "alice")
        #expect(fromHeader.requestDate == RFC3339.date(from: "2025-09-15T11:30:00Z"))
        let unreadable = try await provider.snapshot(for: "alice")
        #expect(unreadable.requestDate == RFC3339.date(from: "2025-09-15T10:00:00Z"))
    }
}
