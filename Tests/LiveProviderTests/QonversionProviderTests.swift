import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitQonversion
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct QonversionProviderTests {
    static let key = "PV77ProjectKeyForTests"

    static func provider(
        _ server: LoopbackHTTPServer, sandbox: Bool = false, attempts: Int = 3,
        logger: EntitlementLogger = .disabled
    ) throws -> QonversionProvider {
        let configuration = try QonversionProvider.Configuration(
            projectKey: key, baseURL: server.baseURL, sandbox: sandbox, platform: "iOS",
            connection: TestFixtures.options(attempts: attempts, sleeper: RecordingSleeper()))
        return QonversionProvider(configuration: configuration, logger: logger)
    }

    static func identity(_ userId: String) -> LoopbackHTTPServer.Reply {
        .json(200, #"{"data": {"anon_id": "\#(userId)"}}"#)
    }

    static let userId = "QON_7f3a9c2e4b8d4f1a9e6c0b2d5a8f3e71"

    @Test func anAnonymousIdIsTheQonversionUserAndInitCarriesTheKeyAsTheSDKsDo() async throws {
        let body = try TestFixtures.document("qonversion", "active")
        let server = try LoopbackHTTPServer(replies: [.json(200, body)])
        defer { server.stop() }
        let snapshot = try await Self.provider(server).snapshot(for: Self.userId)

        let expected = try QonversionAdapter().snapshot(from: Data(body.utf8), at: Date())
        #expect(snapshot.entitlements.keys.sorted() == expected.entitlements.keys.sorted())
        #expect(snapshot.appUserId == Self.userId)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/user/init")
        #expect(request.header("Authorization") == "Bearer " + Self.key)
        #expect(request.header("Platform") == "iOS")
        #expect(request.header("Trigger") == "ActualizePermissions")
        #expect(
            try JSONNode(parsing: request.body).value
                == .object([
                    "access_token": .string(Self.key), "q_uid": .string(Self.userId),
                    "client_uid": .string(Self.userId), "debug_mode": .bool(false),
                ]))
    }

    @Test func sandboxPrefixesTheKeyWithTest() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, try TestFixtures.document("qonversion", "active"))])
        defer { server.stop() }
        _ = try await Self.provider(server, sandbox: true).snapshot(for: Self.userId)
        let request = try #require(server.requests.first)
        #expect(request.header("Authorization") == "Bearer test_" + Self.key)
        #expect(try JSONNode(parsing: request.body).value["debug_mode"] == .bool(true))
    }

    @Test func anIdentityIsResolvedOnceThroughIdentitiesThenRemembered() async throws {
        let body = try TestFixtures.document("qonversion", "active")
        let server = try LoopbackHTTPServer { request, _ in
            request.target == "/v2/identities" ? Self.identity(Self.userId) : .json(200, body)
        }
        defer { server.stop() }
        let provider = try Self.provider(server)
        let first = try await provider.snapshot(for: "alice")
        _ = try await provider.snapshot(for: "alice")
        #expect(first.appUserId == "alice")
        let requests = server.requests
        #expect(requests.map(\.target) == ["/v2/identities", "/v1/user/init", "/v1/user/init"])
        let identify = try JSONNode(parsing: requests[0].body).value
        #expect(identify["identity_id"] == .string("alice"))
        if case .string(let offered)? = identify["anon_id"] {
            #expect(provider.isAnonymous(offered))
        } else {
            Issue.record("no anon_id sent")
        }
        #expect(try JSONNode(parsing: requests[1].body).value["q_uid"] == .string(Self.userId))
    }

    @Test func identitiesThatLookAlikeAreResolvedByTheirBytes() async throws {
        // "café" precomposed and decomposed are two identities to Qonversion: the one resolved first
        // must never answer for the other.
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)  // Swift's String equality: why ids are keyed by bytes
        let body = try TestFixtures.document("qonversion", "active")
        let other = "QON_00000000000000000000000000000002"
        let server = try LoopbackHTTPServer { request, _ in
            guard request.target == "/v2/identities" else { return .json(200, body) }
            guard case .string(let asked)? = try? JSONNode(parsing: request.body).value["identity_id"] else {
                return .json(400, "{}")
            }
            return Self.identity(asked.utf8.elementsEqual(precomposed.utf8) ? Self.userId : other)
        }
        defer { server.stop() }
        let provider = try Self.provider(server)
        _ = try await provider.snapshot(for: precomposed)
        _ = try await provider.snapshot(for: decomposed)
        let requests = server.requests
        #expect(requests.map(\.target) == ["/v2/identities", "/v1/user/init", "/v2/identities", "/v1/user/init"])
        #expect(try JSONNode(parsing: requests[1].body).value["q_uid"] == .string(Self.userId))
        #expect(try JSONNode(parsing: requests[3].body).value["q_uid"] == .string(other))
    }

    @Test func logInFromAnAnonymousUserOffersItAndCreatedMeansTheIdentityWasNew() async throws {
        let body = try TestFixtures.document("qonversion", "active")
        let existing = "QON_00000000000000000000000000000001"
        let server = try LoopbackHTTPServer { request, _ in
            guard request.target == "/v2/identities" else { return .json(200, body) }
            let sent = try? JSONNode(parsing: request.body).value
            if sent?["identity_id"] == .string("known") { return Self.identity(existing) }
            if case .string(let offered)? = sent?["anon_id"] { return Self.identity(offered) }
            return .json(400, "{}")
        }
        defer { server.stop() }
        let provider = try Self.provider(server)
        let anonymous = provider.makeAnonymousAppUserId()
        let new = try await provider.logIn(from: anonymous, to: "newcomer")
        #expect(new.created)
        #expect(new.snapshot.appUserId == "newcomer")
        let known = try await provider.logIn(from: anonymous, to: "known")
        #expect(!known.created)
        let requests = server.requests
        #expect(requests.map(\.target) == ["/v2/identities", "/v1/user/init", "/v2/identities", "/v1/user/init"])
        #expect(
            try JSONNode(parsing: requests[0].body).value
                == .object(["anon_id": .string(anonymous), "identity_id": .string("newcomer")]))
        #expect(requests[1].header("Trigger") == "Identify")
        #expect(try JSONNode(parsing: requests[1].body).value["q_uid"] == .string(anonymous))
        #expect(try JSONNode(parsing: requests[3].body).value["q_uid"] == .string(existing))
    }

    @Test func restoresAndPurchasesUseTheSDKsCalls() async throws {
        let body = try TestFixtures.document("qonversion", "active")
        let server = try LoopbackHTTPServer(replies: [.json(200, body)])
        defer { server.stop() }
        let provider = try Self.provider(server)
        _ = try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "MIIT"), for: Self.userId)
        _ = try await provider.syncPurchases(StoreReceipt(store: .playStore, token: "play-1"), for: Self.userId)
        _ = try await provider.reportPurchase(
            StorePurchase(receipt: StoreReceipt(store: .appStore, token: "MIIT2"), productId: "premium_monthly"),
            for: Self.userId)
        let requests = server.requests
        #expect(requests.map(\.target) == ["/v1/user/init", "/v1/user/restore", "/v1/user/purchase"])
        #expect(requests.map { $0.header("Trigger") } == ["Restore", "Restore", "Purchase"])
        let bodies = try requests.map { try JSONNode(parsing: $0.body).value }
        #expect(bodies[0]["receipt"] == .string("MIIT"))
        #expect(bodies[1]["history"] == .array([.object(["purchase_token": .string("play-1")])]))
        #expect(bodies[2]["receipt"] == .string("MIIT2"))
        #expect(bodies[2]["purchase"] == .object(["product": .string("premium_monthly")]))
    }

    @Test func errorsNameTheStatusAndQonversionsCode() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .json(401, #"{"error": {"type": "request", "code": "control_unauthorized", "message": "Unauthorized"}}"#),
            .json(402, #"{"error": {"code": "payment_required", "message": "Project disabled"}}"#),
            .json(200, #"{"success": false, "data": {}}"#),
        ])
        defer { server.stop() }
        let provider = try Self.provider(server)
        var errors: [EntitlementClientError] = []
        for _ in 0..<3 {
            do {
                _ = try await provider.snapshot(for: Self.userId)
            } catch {
                errors.append(error)
            }
        }
        #expect(errors.map(\.code) == [.credentialsRefused, .credentialsRefused, .badResponse])
        #expect(errors.map(\.httpStatus) == [401, 402, 200])
        #expect(errors.map(\.vendorCode) == ["control_unauthorized", "payment_required", nil])
        #expect(errors[0].message.contains("HTTP 401 (control_unauthorized: Unauthorized)"))
        #expect(errors[2].documentError != nil)
    }

    @Test func aBrokenIdentitiesAnswerIsABadResponse() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, #"{"data": {}}"#)])
        defer { server.stop() }
        do {
            _ = try await Self.provider(server).snapshot(for: "alice")
            Issue.record("expected an error")
        } catch let error as EntitlementClientError {
            #expect(error.code == .badResponse)
            #expect(error.documentError?.path.description.contains("anon_id") == true)
        }
        #expect(server.requests.count == 1)
    }

    @Test func anonymousIdsHaveQonversionsForm() throws {
        let configuration = try QonversionProvider.Configuration(projectKey: Self.key)
        let provider = QonversionProvider(
            configuration: configuration, randomNumberGenerator: SplitMix64(seed: 3))
        let id = provider.makeAnonymousAppUserId()
        #expect(id.hasPrefix("QON_"))
        #expect(id.count == 36)
        #expect(id.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(provider.isAnonymous(id))
        #expect(!provider.isAnonymous("QON_alice"))
        let again = QonversionProvider(configuration: configuration, randomNumberGenerator: SplitMix64(seed: 3))
        #expect(again.makeAnonymousAppUserId() == id)
    }

    @Test func aSecretKeyIsRefused() {
        for key in ["sk_abc", "test_sk_abc"] {
            #expect(throws: EntitlementClientError.self) { _ = try QonversionProvider.Configuration(projectKey: key) }
        }
    }

    @Test func logInFromAnIdentifiedCustomerOffersAFreshUserNeverTheOldIdentity() async throws {
        let body = try TestFixtures.document("qonversion", "active")
        let server = try LoopbackHTTPServer { request, _ in
            guard request.target == "/v2/identities" else { return .json(200, body) }
            if case .string(let offered)? = (try? JSONNode(parsing: request.body).value)?["anon_id"] {
                return Self.identity(offered)
            }
            return .json(400, "{}")
        }
        defer { server.stop() }
        let provider = try Self.provider(server)
        let result = try await provider.logIn(from: "alice", to: "bob")
        #expect(result.created)
        let identify = try JSONNode(parsing: try #require(server.requests.first).body).value
        #expect(identify["identity_id"] == .string("bob"))
        guard case .string(let offered)? = identify["anon_id"] else {
            Issue.record("no anon_id sent")
            return
        }
        // Offering alice's Qonversion user would merge two identified customers.
        #expect(provider.isAnonymous(offered))
        #expect(server.requests.map(\.target) == ["/v2/identities", "/v1/user/init"])
    }
}
