import EntitlementKit
import EntitlementKitOwnBackend
import EntitlementKitTesting
import Foundation
import ServerHarness
import Testing

/// The server as a real process on a real PostgreSQL, driven as Apple, Google, Stripe and the app do.
@Suite(.serialized, .timeLimit(.minutes(10)), .enabled(if: TestDatabase.isEnabled))
struct EndToEndTests {
    let notifications: AppStoreNotifications
    let pushes: SimulatedPlayPushes
    let api = StoreAPIStandIn()
    let server: ServerProcess

    init() async throws {
        notifications = try AppStoreNotifications()
        pushes = try SimulatedPlayPushes(
            packageName: TestApp.packageName, audience: "https://ledger.example.com/notifications/googleplay",
            serviceAccountEmail: "play-rtdn@example-project.iam.gserviceaccount.com")
        try await api.start()
        let deployment = try TestDeployment(
            database: try TestDatabase.fresh(), api: api.baseURL, notifications: notifications, pushes: pushes)
        server = try await ServerProcess(environment: deployment.environment)
    }

    func post(_ path: String, _ body: String, headers: [String: String] = [:]) async throws -> (Int, JSONValue?) {
        let (status, data) = try await HTTP.send(
            "POST", server.baseURL.appendingPathComponent(path), headers: headers, body: Data(body.utf8))
        return (status, try? JSONValue.parse(data))
    }

    func client(_ appUserId: String) async throws -> EntitlementClient {
        let provider = OwnBackendProvider(
            configuration: try .init(baseURL: server.baseURL),
            requestHeaders: { id in TestDeployment.authorization(id) })
        return try await EntitlementClient(provider: provider, cache: InMemoryEntitlementCache(), appUserId: appUserId)
    }

    func accountToken(of appUserId: String) async throws -> String {
        let (status, data) = try await HTTP.send(
            "GET", server.baseURL.appendingPathComponent("customers/\(appUserId)/account-token"),
            headers: TestDeployment.authorization(appUserId))
        #expect(status == 200)
        guard case .object(let fields) = try JSONValue.parse(data), case .string(let token)? = fields["accountToken"]
        else { throw ServerFailure("no accountToken in \(String(decoding: data, as: UTF8.self))") }
        return token
    }

    @Test func anAppStorePurchaseItsRenewalAndItsRefundReachTheApp() async throws {
        let now = Date()
        let token = try await accountToken(of: "alice")
        #expect(token == token.lowercased() && UUID(uuidString: token) != nil)
        #expect(try await accountToken(of: "alice") == token, "the same token every time")
        let client = try await client("alice")
        #expect(!(await client.checkEntitlements(.fetchCurrent)).isActive("premium"))

        let day: TimeInterval = 86_400
        let subscribed = notifications.body(
            type: "SUBSCRIBED", uuid: UUID().uuidString.lowercased(), original: "2000001", transaction: "2000001",
            accountToken: token, start: now - day, expires: now + 29 * day, signedAt: now)
        let (status, answer) = try await post("notifications/appstore", subscribed)
        #expect(status == 200)
        #expect(answer == .object(["outcome": .string("applied"), "customers": .array([.string("alice")])]))
        #expect(try await post("notifications/appstore", subscribed).1 == .object(["outcome": .string("duplicate")]))
        let bought = await client.checkEntitlements(.fetchCurrent)
        #expect(bought.isActive("premium"), "access appears after the purchase")

        let renewed = notifications.body(
            type: "DID_RENEW", uuid: UUID().uuidString.lowercased(), original: "2000001", transaction: "2000002",
            accountToken: token, start: now + 29 * day, expires: now + 59 * day, signedAt: now + 1)
        #expect(try await post("notifications/appstore", renewed).0 == 200)
        let afterRenewal = await client.checkEntitlements(.fetchCurrent)
        let renewedExpiry = afterRenewal.snapshot?["premium"]?.expirationDate?.timeIntervalSince1970 ?? 0
        #expect(abs(renewedExpiry - (now + 59 * day).timeIntervalSince1970) < 1)

        // Apple refunds both periods: one REFUND notification per transaction.
        for (transaction, start, expires) in [
            ("2000002", now + 29 * day, now + 59 * day), ("2000001", now - day, now + 29 * day),
        ] {
            let refund = notifications.body(
                type: "REFUND", uuid: UUID().uuidString.lowercased(), original: "2000001", transaction: transaction,
                accountToken: token, start: start, expires: expires, signedAt: now + 2, revokedAt: now)
            #expect(try await post("notifications/appstore", refund).0 == 200)
        }
        let refunded = await client.checkEntitlements(.fetchCurrent)
        #expect(refunded.error == nil)
        #expect(!refunded.isActive("premium"), "access goes after the refund")
    }

    @Test func theAppPostsItsTransactionAndTheServerVerifiesIt() async throws {
        let now = Date()
        let client = try await client("carol")
        let transaction = notifications.signer.sign(
            .object([
                "transactionId": .string("3000001"), "originalTransactionId": .string("3000001"),
                "bundleId": .string(TestApp.bundleId), "productId": .string(TestApp.productId),
                "purchaseDate": AppStoreNotifications.milliseconds(now - 60),
                "originalPurchaseDate": AppStoreNotifications.milliseconds(now - 60),
                "expiresDate": AppStoreNotifications.milliseconds(now + 86_400), "quantity": .integer(1),
                "type": .string("Auto-Renewable Subscription"), "inAppOwnershipType": .string("PURCHASED"),
                "signedDate": AppStoreNotifications.milliseconds(now), "environment": .string("Production"),
            ]))
        let purchase = StorePurchase(
            receipt: StoreReceipt(store: .appStore, token: transaction), productId: TestApp.productId)
        #expect(try await client.recordPurchase(purchase).activeEntitlementIds == ["premium"])

        // A claim that is not a JWS is refused; a store the server does not read is 422.
        let (refused, body) = try await post(
            "customers/carol/purchases", #"{"store": "appStore", "token": "{\"productId\": \"premium_monthly\"}"}"#,
            headers: TestDeployment.authorization("carol"))
        #expect(refused == 400)
        if case .object(let fields)? = body { #expect(fields["error"] != nil) } else { Issue.record("no error body") }
        #expect(
            try await post(
                "customers/carol/purchases", #"{"store": "amazon", "token": "x"}"#,
                headers: TestDeployment.authorization("carol")
            ).0 == 422)
    }

    @Test func aStripeSubscriptionThroughSignedWebhooks() async throws {
        let now = Date()
        let client = try await client("bob")
        let created = StripeInputs.event(
            id: "evt_1", type: "customer.subscription.created",
            object: StripeInputs.subscription(
                id: "sub_bob", appUserId: "bob", status: "active", start: now - 60, periodEnd: now + 30 * 86_400),
            created: now - 60)
        let signed = ["Stripe-Signature": StripeInputs.signature(created, at: now)]
        #expect(try await post("webhooks/stripe", created, headers: signed).0 == 200)
        #expect(
            try await post(
                "webhooks/stripe", created,
                headers: ["Stripe-Signature": StripeInputs.signature(created, at: now, secret: "whsec_other")]
            ).0
                == 400, "a signature by another secret is refused")
        #expect((await client.checkEntitlements(.fetchCurrent)).isActive("premium"))

        let deleted = StripeInputs.event(
            id: "evt_2", type: "customer.subscription.deleted",
            object: StripeInputs.subscription(
                id: "sub_bob", appUserId: "bob", status: "canceled", start: now - 60, periodEnd: now + 30 * 86_400),
            created: now)
        #expect(
            try await post(
                "webhooks/stripe", deleted, headers: ["Stripe-Signature": StripeInputs.signature(deleted, at: now)]
            ).0 == 200)
        #expect(!(await client.checkEntitlements(.fetchCurrent)).isActive("premium"))
    }

    /// A Play subscription of `appUserId` bought at `now`: Google's API serves it, and its authenticated
    /// push (which says only that the purchase changed) is answered 204 once the server fetched it. Its token.
    func buyOnPlay(_ appUserId: String, at now: Date) async throws -> String {
        let token = try await accountToken(of: appUserId)
        let purchaseToken = pushes.purchaseToken()
        api.set(
            PlayInputs.subscription(accountToken: token, start: now - 60, expires: now + 30 * 86_400),
            for: purchaseToken)
        let push = pushes.subscription(4, purchaseToken: purchaseToken, subscriptionId: TestApp.productId, at: now)
        #expect(try await post("notifications/googleplay", push.body, headers: push.headers).0 == 204)
        return purchaseToken
    }

    @Test func aPlayPurchaseIsFetchedFromGoogleWithTheServiceAccount() async throws {
        let now = Date()
        let purchaseToken = try await buyOnPlay("alice", at: now)
        #expect(api.authorizations.contains("Bearer " + StoreAPIStandIn.accessToken), "fetched with the OAuth token")
        let alice = try await client("alice")
        #expect((await alice.checkEntitlements(.fetchCurrent)).isActive("premium"))

        // A purchase Google does not know is a refused claim; one Google cannot be reached for is 503.
        let (unknown, _) = try await post(
            "customers/alice/purchases", #"{"store": "playStore", "token": "no-such-token"}"#,
            headers: TestDeployment.authorization("alice"))
        #expect(unknown == 400)
        api.stop()
        let again = pushes.subscription(2, purchaseToken: purchaseToken, subscriptionId: TestApp.productId, at: now)
        #expect(
            try await post("notifications/googleplay", again.body, headers: again.headers).0 == 503, "Pub/Sub retries")
    }

    @Test func aPlayPushWithoutGooglesTokenIs401AndChangesNothing() async throws {
        let now = Date()
        let purchaseToken = try await buyOnPlay("carol", at: now)
        let carol = try await client("carol")
        #expect((await carol.checkEntitlements(.fetchCurrent)).isActive("premium"))

        // The void Google would send, under tokens Google did not sign for this subscription.
        let void = pushes.voided(purchaseToken: purchaseToken, at: now)
        let signer = try GooglePlayTestPushSigner()
        let email = pushes.serviceAccountEmail
        let valid = void.headers["Authorization"] ?? ""
        let other = signer.authorizationHeader(audience: pushes.audience, email: "someone@example.com", issuedAt: now)
        // Another token's claims under this token's signature.
        let forged = valid.split(separator: ".").enumerated().map { index, part in
            index == 1 ? other.split(separator: ".")[1] : part
        }.joined(separator: ".")
        let refused = [
            "no token": [:],
            "forged": ["Authorization": forged],
            "expired": [
                "Authorization": signer.authorizationHeader(
                    audience: pushes.audience, email: email, issuedAt: now - 7_200)
            ],
            "another audience": [
                "Authorization": signer.authorizationHeader(
                    audience: "https://other.example.com/push", email: email, issuedAt: now)
            ],
        ]
        let fetchesBefore = api.authorizations.count
        for (name, headers) in refused {
            #expect(try await post("notifications/googleplay", void.body, headers: headers).0 == 401, "\(name)")
        }
        #expect(api.authorizations.count == fetchesBefore, "a refused push fetches nothing")
        #expect((await carol.checkEntitlements(.fetchCurrent)).isActive("premium"), "a refused void changes nothing")
        // The same push with Google's token: its message id was not kept as seen, and the void is taken.
        #expect(try await post("notifications/googleplay", void.body, headers: void.headers).0 == 204)
        #expect(!(await carol.checkEntitlements(.fetchCurrent)).isActive("premium"), "the authenticated void is taken")
    }

    @Test func sessionsServeOnlyTheirOwnCustomer() async throws {
        let url = server.baseURL.appendingPathComponent("customers/alice/entitlements")
        #expect(try await HTTP.send("GET", url).0 == 401, "no session")
        #expect(
            try await HTTP.send("GET", url, headers: ["Authorization": "Bearer made-up"]).0 == 401, "unknown session")
        #expect(
            try await HTTP.send("GET", url, headers: TestDeployment.authorization("bob")).0 == 403, "another customer")
        #expect(try await HTTP.send("GET", url, headers: TestDeployment.authorization("alice")).0 == 200)

        // The anonymous id logs in to alice; later bob's session cannot log in from it.
        let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"
        let login = #"{"from": "\#(anonymous)"}"#
        #expect(try await post("customers/alice/login", login, headers: TestDeployment.authorization("alice")).0 == 200)
        #expect(try await post("customers/bob/login", login, headers: TestDeployment.authorization("bob")).0 == 403)
        #expect(
            try await post("customers/bob/login", #"{"from": "alice"}"#, headers: TestDeployment.authorization("bob")).0
                == 403, "an identified id of another customer")
    }

    @Test func bodiesOverOneMebibyteAre413() async throws {
        let big = String(repeating: "x", count: (1 << 20) + 1)
        #expect(try await post("notifications/appstore", big).0 == 413)
        #expect(try await post("notifications/appstore", #"{"signedPayload": "not.a.jws"}"#).0 == 400)
    }
}
