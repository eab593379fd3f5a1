import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitHTTP
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct AdaptyProviderTests {
    static let key = "public_live_KeyForTests.abc"
    static let device = AdaptyBodies.deviceProfile
    static let other = AdaptyBodies.otherProfile
    static let profilePath = "/api/v1/sdk/analytics/profiles/"

    static func provider(
        _ server: LoopbackHTTPServer, attempts: Int = 3, sleeper: RecordingSleeper = RecordingSleeper(),
        logger: EntitlementLogger = .disabled
    ) throws -> AdaptyProvider {
        let configuration = try AdaptyProvider.Configuration(
            publicSDKKey: key, baseURL: server.baseURL, platform: "iOS",
            connection: TestFixtures.options(attempts: attempts, sleeper: sleeper))
        return AdaptyProvider(
            configuration: configuration, logger: logger, randomNumberGenerator: SplitMix64(seed: 3))
    }

    static func body(_ request: LoopbackHTTPServer.RecordedRequest) throws -> JSONValue {
        try JSONNode(parsing: request.body).value
    }

    /// The error `operation` throws; records an issue when it does not throw.
    static func failure(_ operation: () async throws -> Void) async -> EntitlementClientError? {
        do {
            try await operation()
            Issue.record("expected an error")
            return nil
        } catch {
            let clientError = error as? EntitlementClientError
            #expect(clientError != nil, "not a client error: \(error)")
            return clientError
        }
    }

    @Test func readsAKnownProfileWithTheApiKeyAndMapsItThroughTheAdapter() async throws {
        let server = try LoopbackHTTPServer(replies: [AdaptyBodies.reply(Self.device)])
        defer { server.stop() }
        let snapshot = try await Self.provider(server).snapshot(for: Self.device)

        #expect(snapshot.provider == .adapty)
        #expect(snapshot.appUserId == Self.device)
        #expect(snapshot["premium"]?.isActive == true)
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == Self.profilePath + Self.device + "/")
        #expect(request.header("Authorization") == "Api-Key " + Self.key)
        #expect(request.header("adapty-sdk-profile-id") == Self.device)
        #expect(request.header("adapty-sdk-platform") == "iOS")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("adapty-sdk-previous-response-hash") == nil)
        #expect(request.body.isEmpty)
    }

    @Test func anAnonymousIdMadeHereIsCreatedWithAPostThenRead() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            let id = String(request.target.dropFirst(Self.profilePath.count).dropLast())
            return AdaptyBodies.reply(id)
        }
        defer { server.stop() }
        let provider = try Self.provider(server)
        let anonymous = provider.makeAnonymousAppUserId()
        _ = try await provider.snapshot(for: anonymous)
        _ = try await provider.snapshot(for: anonymous)

        let requests = server.requests
        #expect(requests.map(\.method) == ["POST", "GET"])
        #expect(requests.map(\.target) == Array(repeating: Self.profilePath + anonymous + "/", count: 2))
        #expect(requests[0].header("Content-Type") == "application/vnd.api+json")
        #expect(
            try Self.body(requests[0])
                == .object([
                    "data": .object([
                        "type": .string("adapty_analytics_profile"), "id": .string(anonymous),
                        "attributes": .object([:]),
                    ])
                ]))
    }

    @Test func aProfileAdaptyDoesNotKnowIsCreatedAfterA404() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .json(404, #"{"error_code": "profile_does_not_exist"}"#), AdaptyBodies.reply(Self.device),
        ])
        defer { server.stop() }
        let snapshot = try await Self.provider(server).snapshot(for: Self.device)
        #expect(snapshot["premium"]?.isActive == true)
        #expect(server.requests.map(\.method) == ["GET", "POST"])
    }

    @Test func aCustomerIsIdentifiedOnceThenReadByTheProfileAdaptyNamed() async throws {
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(Self.other, customer: "alice"), AdaptyBodies.reply(Self.other, customer: "alice"),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        let first = try await provider.snapshot(for: "alice")
        let second = try await provider.snapshot(for: "alice")
        #expect(first.appUserId == "alice")
        #expect(second.appUserId == "alice")

        let requests = server.requests
        #expect(requests.map(\.method) == ["POST", "GET"])
        let offered = String(requests[0].target.dropFirst(Self.profilePath.count).dropLast())
        #expect(provider.isAnonymous(offered))
        #expect(offered != Self.other)
        #expect(try Self.body(requests[0])["data"]?["attributes"] == .object(["customer_user_id": .string("alice")]))
        #expect(requests[1].target == Self.profilePath + Self.other + "/")
    }

    @Test func logInOffersTheAnonymousProfileAndCreatedSaysWhetherAdaptyKeptIt() async throws {
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(Self.device, customer: "bob"), AdaptyBodies.reply(Self.other, customer: "bob"),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        let signedUp = try await provider.logIn(from: Self.device, to: "bob")
        let returning = try await provider.logIn(from: Self.device, to: "bob")
        #expect(signedUp.created)
        #expect(!returning.created)
        #expect(signedUp.snapshot.appUserId == "bob")
        #expect(returning.snapshot.appUserId == "bob")
        let requests = server.requests
        #expect(requests.map(\.target) == Array(repeating: Self.profilePath + Self.device + "/", count: 2))
        #expect(
            try Self.body(requests[0])["data"]?["attributes"]?["customer_user_id"] == .string("bob"))
    }

    @Test func logInFromAnIdentifiedCustomerNeverOffersThatCustomersProfile() async throws {
        let server = try LoopbackHTTPServer { request, index in
            index == 0
                ? AdaptyBodies.reply(Self.device, customer: "carol")
                : AdaptyBodies.reply(
                    String(request.target.dropFirst(Self.profilePath.count).dropLast()), customer: "dave")
        }
        defer { server.stop() }
        let provider = try Self.provider(server)
        _ = try await provider.logIn(from: Self.device, to: "carol")
        let switched = try await provider.logIn(from: "carol", to: "dave")
        #expect(switched.created)
        let offered = try #require(server.requests.last).target
        #expect(offered != Self.profilePath + Self.device + "/")
    }

    @Test func anAnswerAboutAnotherProfileOrCustomerIsRefused() async throws {
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(Self.other), AdaptyBodies.reply(Self.device, customer: "mallory"),
            AdaptyBodies.reply(Self.device),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        let wrongProfile = await Self.failure { _ = try await provider.snapshot(for: Self.device) }
        #expect(wrongProfile?.code == .badResponse)
        #expect(wrongProfile?.documentError?.path.description.contains("profile_id") == true)
        let wrongCustomer = await Self.failure { _ = try await provider.snapshot(for: "erin") }
        #expect(wrongCustomer?.code == .badResponse)
        let noCustomer = await Self.failure { _ = try await provider.logIn(from: Self.device, to: "erin") }
        #expect(noCustomer?.code == .badResponse)
    }

    @Test func anUnchangedHashServesTheRememberedSnapshotWithoutDecodingTheBody() async throws {
        let undecodable = "this is not JSON, and would fail to decode"
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(Self.device, hash: "h1"),
            .json(200, undecodable, headers: [.init("x-response-hash", "h1")]),
            .json(200, undecodable, headers: [.init("x-response-hash", "h2")]),
            AdaptyBodies.reply(Self.device, hash: "h3"),
        ])
        defer { server.stop() }
        let clock = MovableWallClock(try #require(RFC3339.date(from: "2025-06-01T12:00:00Z")))
        let configuration = try AdaptyProvider.Configuration(
            publicSDKKey: Self.key, baseURL: server.baseURL,
            connection: TestFixtures.options(sleeper: RecordingSleeper()))
        let provider = AdaptyProvider(configuration: configuration, clock: clock)

        let first = try await provider.snapshot(for: Self.device)
        clock.set(try #require(RFC3339.date(from: "2025-06-02T12:00:00Z")))
        let unchanged = try await provider.snapshot(for: Self.device)
        #expect(unchanged.entitlements == first.evaluated(at: clock.now()).entitlements)
        #expect(unchanged.evaluatedAt == clock.now())
        // A new hash means a new body: it is decoded, and refused; what was remembered is forgotten.
        let changed = await Self.failure { _ = try await provider.snapshot(for: Self.device) }
        #expect(changed?.code == .badResponse)
        _ = try await provider.snapshot(for: Self.device)

        let sent = server.requests.map { $0.header("adapty-sdk-previous-response-hash") }
        #expect(sent == [nil, "h1", "h1", nil])
    }

    @Test func aHashThatCouldNotBeSentBackIsNotRemembered() async throws {
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(Self.device, hash: "has space"), AdaptyBodies.reply(Self.device),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        _ = try await provider.snapshot(for: Self.device)
        _ = try await provider.snapshot(for: Self.device)
        #expect(server.requests.map { $0.header("adapty-sdk-previous-response-hash") } == [nil, nil])
    }

    @Test func aRememberedHashNeverAnswersForAnotherCustomer() async throws {
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(Self.device, hash: "anon"),
            AdaptyBodies.reply(Self.device, customer: "frank", hash: "anon"),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        _ = try await provider.snapshot(for: Self.device)
        let frank = try await provider.logIn(from: Self.device, to: "frank")
        #expect(frank.snapshot.appUserId == "frank")
    }

    @Test(arguments: [
        (
            401, #"{"error_code": "not_authenticated"}"#, EntitlementClientError.Code.credentialsRefused,
            String?("not_authenticated")
        ),
        (403, #"{"detail": [{"type": "permission_denied"}]}"#, .credentialsRefused, "permission_denied"),
        (400, #"{"errors": [{"code": "invalid", "errors": ["bad profile"]}]}"#, .badResponse, "invalid"),
        (444, #"{"error_code": "blocked"}"#, .backendUnavailable, "blocked"),
        (409, "{}", .badResponse, nil),
    ])
    func errorStatusesMapToTheClientsCodes(
        status: Int, body: String, code: EntitlementClientError.Code, vendor: String?
    )
        async throws
    {
        let server = try LoopbackHTTPServer(replies: [.json(status, body)])
        defer { server.stop() }
        let sleeper = RecordingSleeper()
        let provider = try Self.provider(server, sleeper: sleeper)
        let error = await Self.failure { _ = try await provider.snapshot(for: Self.device) }
        #expect(error?.code == code)
        #expect(error?.httpStatus == status)
        #expect(error?.vendorCode == vendor)
        #expect(server.requests.count == 1)
        #expect(sleeper.waits.isEmpty)
    }

    @Test func unavailableAndRateLimitedAreRetriedThenBackendUnavailable() async throws {
        for status in [429, 500, 503, 520, 524, 526] {
            let server = try LoopbackHTTPServer(replies: [.json(status, "{}")])
            defer { server.stop() }
            let error = await Self.failure {
                _ = try await Self.provider(server, attempts: 2).snapshot(for: Self.device)
            }
            #expect(error?.code == .backendUnavailable)
            #expect(server.requests.count == 2)
        }
    }

    @Test func noConnectionIsOfflineAndABadBodyIsBadResponse() async throws {
        let dropped = try LoopbackHTTPServer(replies: [.drop])
        defer { dropped.stop() }
        let offline = await Self.failure {
            _ = try await Self.provider(dropped, attempts: 2).snapshot(for: Self.device)
        }
        #expect(offline?.code == .offline)

        let garbled = try LoopbackHTTPServer(replies: [
            .json(200, #"{"data": {"type": "adapty_analytics_profile", "attributes": {"profile_id": 7}}}"#)
        ])
        defer { garbled.stop() }
        let bad = await Self.failure { _ = try await Self.provider(garbled).snapshot(for: Self.device) }
        #expect(bad?.code == .badResponse)
        #expect(bad?.documentError != nil)
    }

    @Test func idsTheBackendRefusesNeverReachTheNetworkAndProfileIdsAreOnePathSegment() async throws {
        let odd = "odd.id~_-%41"
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(odd, customer: "grace"), AdaptyBodies.reply(odd, customer: "grace"),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        for id in ["", "  ", "a/b", "null", String(repeating: "x", count: 101)] {
            let error = await Self.failure { _ = try await provider.snapshot(for: id) }
            #expect(error?.code == .invalidAppUserId)
        }
        #expect(server.requests.isEmpty)
        _ = try await provider.snapshot(for: "grace")
        _ = try await provider.snapshot(for: "grace")
        #expect(server.requests.last?.target == Self.profilePath + "odd.id~_-%2541/")
    }

    @Test func aProfileIdThatCannotBeAPathSegmentOrHeaderIsRefused() async throws {
        for id in ["a/b", "a b", ""] {
            let server = try LoopbackHTTPServer(replies: [AdaptyBodies.reply(id, customer: "heidi")])
            defer { server.stop() }
            let error = await Self.failure { _ = try await Self.provider(server).snapshot(for: "heidi") }
            #expect(error?.code == .badResponse)
        }
    }

    @Test func restoresAndPurchasesUseTheStoresValidationCalls() async throws {
        let server = try LoopbackHTTPServer(replies: [AdaptyBodies.reply(Self.device)])
        defer { server.stop() }
        let provider = try Self.provider(server)
        _ = try await provider.syncPurchases(
            StoreReceipt(store: .appStore, token: "2000000123456789"), for: Self.device)
        _ = try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "MIIT+receipt=="), for: Self.device)
        _ = try await provider.syncPurchases(StoreReceipt(store: .playStore, token: "play-token"), for: Self.device)
        _ = try await provider.reportPurchase(
            StorePurchase(receipt: StoreReceipt(store: .appStore, token: "2000000123456790"), productId: "gold"),
            for: Self.device)
        _ = try await provider.reportPurchase(
            StorePurchase(receipt: StoreReceipt(store: .playStore, token: "play-token-2"), productId: "gold"),
            for: Self.device)
        let requests = server.requests
        #expect(requests.allSatisfy { $0.method == "POST" && $0.header("Authorization") == "Api-Key " + Self.key })
        #expect(
            requests.map(\.target) == [
                "/api/v1/sdk/purchase/app-store/original-transaction-id/validate/",
                "/api/v1/sdk/in-apps/apple/receipt/validate/", "/api/v1/sdk/purchase/play-store/token/v2/restore/",
                "/api/v1/sdk/purchase/app-store/original-transaction-id/validate/",
                "/api/v1/sdk/purchase/play-store/token/v2/validate/",
            ])
        func envelope(_ type: String, _ attributes: [String: JSONValue]) -> JSONValue {
            .object(["data": .object(["type": .string(type), "attributes": .object(attributes)])])
        }
        let profile = JSONValue.string(Self.device)
        #expect(
            try requests.map(Self.body) == [
                envelope(
                    "adapty_purchase_app_store_original_transaction_id_validation_result",
                    [
                        "profile_id": profile, "original_transaction_id": .string("2000000123456789"),
                        "request_source": .string("restore"),
                    ]),
                envelope(
                    "adapty_inapps_apple_receipt_validation_result",
                    ["profile_id": profile, "receipt_encoded": .string("MIIT+receipt==")]),
                envelope(
                    "google_receipt_validation_result",
                    ["profile_id": profile, "items": .array([.object(["purchase_token": .string("play-token")])])]),
                envelope(
                    "adapty_purchase_app_store_original_transaction_id_validation_result",
                    [
                        "profile_id": profile, "original_transaction_id": .string("2000000123456790"),
                        "request_source": .string("purchasing"),
                    ]),
                envelope(
                    "google_receipt_validation_result",
                    ["profile_id": profile, "product_id": .string("gold"), "purchase_token": .string("play-token-2")]),
            ])
    }

    @Test func aValidationForAProfileAdaptyDoesNotKnowCreatesItAndValidatesOnceMore() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .json(404, #"{"error_code": "profile_does_not_exist"}"#), AdaptyBodies.reply(Self.device),
            AdaptyBodies.reply(Self.device), .json(404, "{}"),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        let restored = try await provider.syncPurchases(
            StoreReceipt(store: .playStore, token: "play-token"), for: Self.device)
        #expect(restored.appUserId == Self.device)
        let restore = "/api/v1/sdk/purchase/play-store/token/v2/restore/"
        #expect(server.requests.map(\.target) == [restore, Self.profilePath + Self.device + "/", restore])
        #expect(server.requests.map(\.method) == ["POST", "POST", "POST"])
    }

    @Test func aStoreAdaptyDoesNotValidateIsRefusedBeforeAnyRequest() async throws {
        let server = try LoopbackHTTPServer(replies: [AdaptyBodies.reply(Self.device)])
        defer { server.stop() }
        let provider = try Self.provider(server)
        let error = await Self.failure {
            _ = try await provider.syncPurchases(StoreReceipt(store: .amazon, token: "t"), for: Self.device)
        }
        #expect(error?.code == .badResponse)
        #expect(server.requests.isEmpty)
    }

    @Test func secretKeysAreRefusedAtConfiguration() {
        for secret in ["secret_live_abc", "sk_abc", "test_sk_abc", ""] {
            #expect(throws: EntitlementClientError.self) { _ = try AdaptyProvider.Configuration(publicSDKKey: secret) }
            do {
                _ = try AdaptyProvider.Configuration(publicSDKKey: secret)
            } catch {
                #expect(error.code == .credentialsRefused)
            }
        }
        #expect((try? AdaptyProvider.Configuration(publicSDKKey: "public_live_abc")) != nil)
    }

    @Test func anonymousIdsAreLowerCaseVersion4UUIDsFromTheInjectedGenerator() throws {
        let configuration = try AdaptyProvider.Configuration(publicSDKKey: Self.key)
        let first = AdaptyProvider(configuration: configuration, randomNumberGenerator: SplitMix64(seed: 9))
        let again = AdaptyProvider(configuration: configuration, randomNumberGenerator: SplitMix64(seed: 9))
        let id = first.makeAnonymousAppUserId()
        #expect(id == again.makeAnonymousAppUserId())
        let uuid = try #require(UUID(uuidString: id))
        #expect(uuid.uuidString.lowercased() == id)
        #expect(Array(id)[14] == "4")
        #expect("89ab".contains(Array(id)[19]))
        #expect(first.isAnonymous(id))
        #expect(!first.isAnonymous(id.uppercased()))
        #expect(!first.isAnonymous("alice"))
        #expect(!first.isAnonymous("QON_0123456789abcdef0123456789abcdef"))
        #expect(first.makeAnonymousAppUserId() != id)
        let system = AdaptyProvider(configuration: configuration)
        #expect(system.isAnonymous(system.makeAnonymousAppUserId()))
    }
}
