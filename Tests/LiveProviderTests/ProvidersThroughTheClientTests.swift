import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import LoopbackHTTPServer
import Testing

/// The live providers driven by the runtime client, against the loopback server: check, logIn, purchase.
@Suite struct ProvidersThroughTheClientTests {
    @Test func revenueCatChecksLogsInAndRecordsAPurchase() async throws {
        let body = try TestFixtures.document("revenuecat", "active-monthly")
        let server = try LoopbackHTTPServer { request, _ in
            request.target == "/v1/subscribers/identify" ? .json(201, body) : .json(200, body)
        }
        defer { server.stop() }
        let configuration = try RevenueCatProvider.Configuration(
            apiKey: "appl_client", baseURL: server.baseURL,
            connection: TestFixtures.options(sleeper: RecordingSleeper()))
        let provider = RevenueCatProvider(configuration: configuration)
        let device = FixedClock(try #require(RFC3339.date(from: "2025-09-15T10:00:00Z")))
        let client = try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), deviceClock: device)
        let anonymous = await client.appUserId
        #expect(provider.isAnonymous(anonymous))

        let check = await client.checkEntitlements()
        #expect(check.error == nil)
        #expect(check.source == .network)
        #expect(check.isActive("pro"))

        let logIn = try await client.logIn("alice")
        #expect(logIn.created)
        #expect(await client.appUserId == "alice")

        let purchased = try await client.recordPurchase(
            StorePurchase(receipt: StoreReceipt(store: .appStore, token: "MIIT"), productId: "com.acme.pro.monthly"))
        #expect(purchased.isActive("pro"))
        let afterPurchase = await client.checkEntitlements()
        #expect(afterPurchase.source == .cache)

        let requests = server.requests
        #expect(
            requests.map(\.target) == [
                "/v1/subscribers/"
                    + anonymous.replacingOccurrences(of: "$", with: "%24")
                    .replacingOccurrences(of: ":", with: "%3A"),
                "/v1/subscribers/identify", "/v1/receipts",
            ])
        #expect(try JSONNode(parsing: requests[2].body).value["app_user_id"] == .string("alice"))
    }

    @Test func qonversionChecksLogsInAndRecordsAPurchase() async throws {
        let body = try TestFixtures.document("qonversion", "active")
        let server = try LoopbackHTTPServer { request, _ in
            guard request.target == "/v2/identities" else { return .json(200, body) }
            if case .string(let offered)? = (try? JSONNode(parsing: request.body).value)?["anon_id"] {
                return .json(200, #"{"data": {"anon_id": "\#(offered)"}}"#)
            }
            return .json(400, "{}")
        }
        defer { server.stop() }
        let configuration = try QonversionProvider.Configuration(
            projectKey: "PV77client", baseURL: server.baseURL,
            connection: TestFixtures.options(sleeper: RecordingSleeper()))
        let provider = QonversionProvider(configuration: configuration)
        let device = FixedClock(try #require(RFC3339.date(from: "2025-06-01T12:00:00Z")))
        let client = try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), deviceClock: device)
        let anonymous = await client.appUserId
        #expect(provider.isAnonymous(anonymous))

        let check = await client.checkEntitlements()
        #expect(check.error == nil)
        #expect(check.isActive("premium"))

        let logIn = try await client.logIn("bob")
        #expect(logIn.created)

        let purchased = try await client.recordPurchase(
            StorePurchase(receipt: StoreReceipt(store: .appStore, token: "MIIT"), productId: "premium_monthly"))
        #expect(purchased.isActive("premium"))

        let requests = server.requests
        #expect(requests.map(\.target) == ["/v1/user/init", "/v2/identities", "/v1/user/init", "/v1/user/purchase"])
        #expect(try JSONNode(parsing: requests[0].body).value["q_uid"] == .string(anonymous))
        #expect(try JSONNode(parsing: requests[3].body).value["q_uid"] == .string(anonymous))
    }

    @Test func adaptyChecksLogsInAndRecordsAPurchase() async throws {
        let profilePath = "/api/v1/sdk/analytics/profiles/"
        let server = try LoopbackHTTPServer { request, _ in
            let attributes = (try? JSONNode(parsing: request.body).value)?["data"]?["attributes"]
            if request.target.hasPrefix(profilePath) {
                // The create POST: the profile offered, carrying the customer user id it was sent.
                var customer: String?
                if case .string(let id)? = attributes?["customer_user_id"] { customer = id }
                return AdaptyBodies.reply(
                    String(request.target.dropFirst(profilePath.count).dropLast()), customer: customer)
            }
            guard case .string(let profileId)? = attributes?["profile_id"] else { return .json(400, "{}") }
            return AdaptyBodies.reply(profileId, customer: "bob")
        }
        defer { server.stop() }
        let configuration = try AdaptyProvider.Configuration(
            publicSDKKey: "public_live_client", baseURL: server.baseURL,
            connection: TestFixtures.options(sleeper: RecordingSleeper()))
        let provider = AdaptyProvider(configuration: configuration)
        let device = FixedClock(try #require(RFC3339.date(from: "2025-06-01T12:00:00Z")))
        let client = try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), deviceClock: device)
        let anonymous = await client.appUserId
        #expect(provider.isAnonymous(anonymous))

        let check = await client.checkEntitlements()
        #expect(check.error == nil)
        #expect(check.isActive("premium"))

        let logIn = try await client.logIn("bob")
        #expect(logIn.created)
        #expect(await client.appUserId == "bob")

        let purchased = try await client.recordPurchase(
            StorePurchase(receipt: StoreReceipt(store: .playStore, token: "play-token"), productId: "premium.monthly"))
        #expect(purchased.isActive("premium"))

        let requests = server.requests
        #expect(
            requests.map(\.target) == [
                profilePath + anonymous + "/", profilePath + anonymous + "/",
                "/api/v1/sdk/purchase/play-store/token/v2/validate/",
            ])
        #expect(requests.map(\.method) == ["POST", "POST", "POST"])
        #expect(
            try JSONNode(parsing: requests[2].body).value["data"]?["attributes"]?["profile_id"] == .string(anonymous))
    }

    @Test func aFailingBackendIsAnAnswerWithTheErrorNotAGrant() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(503, #"{"code": 7110, "message": "down"}"#)])
        defer { server.stop() }
        let configuration = try RevenueCatProvider.Configuration(
            apiKey: "appl_client", baseURL: server.baseURL,
            connection: TestFixtures.options(attempts: 2, sleeper: RecordingSleeper()))
        let client = try await EntitlementClient(
            provider: RevenueCatProvider(configuration: configuration), cache: InMemoryEntitlementCache(),
            appUserId: "carol")
        let check = await client.checkEntitlements()
        #expect(check.snapshot == nil)
        #expect(check.activeEntitlementIds.isEmpty)
        #expect(check.error?.code == .backendUnavailable)
        #expect(check.error?.httpStatus == 503)
        #expect(server.requests.count == 2)
    }
}
