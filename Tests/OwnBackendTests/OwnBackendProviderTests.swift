import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitOwnBackend
import Foundation
import LoopbackHTTPServer
import Testing

/// The three routes, their bodies and headers, against the loopback server.
@Suite(.timeLimit(.minutes(5))) struct OwnBackendRoutesTests {
    @Test func readsTheSnapshotWithTheAppsHeadersAndRejudgesItAtTheClock() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, SnapshotBodies.snapshot(for: "alice"))])
        defer { server.stop() }
        let asked = HeaderRequests()
        let provider = try OwnBackendProvider.forTests(server) { id in
            asked.note(id)
            return ["Authorization": "Bearer s3ss10n", "X-App-Build": "412"]
        }
        let snapshot = try await provider.snapshot(for: "alice")

        #expect(snapshot.appUserId == "alice")
        #expect(snapshot.provider == ProviderID(rawValue: "ledger"))
        #expect(snapshot.activeEntitlementIds == ["premium"])
        #expect(snapshot.evaluatedAt == SnapshotBodies.now)
        #expect(snapshot.requestDate == RFC3339.date(from: "2025-09-15T09:59:00Z"))
        #expect(asked.appUserIds == ["alice"])
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/customers/alice/entitlements")
        #expect(request.header("Authorization") == "Bearer s3ss10n")
        #expect(request.header("X-App-Build") == "412")
        #expect(request.header("Accept") == "application/json")
        #expect(request.body.isEmpty)
    }

    @Test func aSnapshotJudgedExpiredAtTheClockIsInactive() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .json(200, SnapshotBodies.snapshot(for: "alice", expires: "2025-09-15T11:00:00Z"))
        ])
        defer { server.stop() }
        let snapshot = try await OwnBackendProvider.forTests(server).snapshot(for: "alice")
        #expect(snapshot.activeEntitlementIds.isEmpty)
        #expect(snapshot["premium"]?.isActive == false)
    }

    @Test func readsEverySchemaVersionThePackageReads() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, SnapshotBodies.schemaOneSnapshot(for: "alice"))])
        defer { server.stop() }
        let snapshot = try await OwnBackendProvider.forTests(server).snapshot(for: "alice")
        #expect(snapshot.activeEntitlementIds == ["premium"])
        #expect(snapshot.verification == .notRequested)
    }

    @Test func idsAreOnePercentEncodedPathSegment() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            // Answer for whichever id was asked, decoded back from the path.
            let segment = request.target.split(separator: "/")[1]
            return .json(200, SnapshotBodies.snapshot(for: String(segment).removingPercentEncoding))
        }
        defer { server.stop() }
        let provider = try OwnBackendProvider.forTests(server)
        for id in ["a b?c#d%e&f=g+h..é", "..", "%2F", "$RCAnonymousID:0123456789abcdef0123456789abcdef"] {
            #expect(try await provider.snapshot(for: id).appUserId == id)
        }
        #expect(
            server.requests.map(\.target) == [
                "/customers/a%20b%3Fc%23d%25e%26f%3Dg%2Bh..%C3%A9/entitlements", "/customers/%2E%2E/entitlements",
                "/customers/%252F/entitlements",
                "/customers/%24RCAnonymousID%3A0123456789abcdef0123456789abcdef/entitlements",
            ])
    }

    @Test func theBaseURLsPathAndConfiguredRoutesAreUsed() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            if request.target.contains("/sessions/") {
                return .json(200, SnapshotBodies.logIn(for: "bob", created: true))
            }
            return .json(200, SnapshotBodies.snapshot(for: "bob"))
        }
        defer { server.stop() }
        let routes = try OwnBackendProvider.Routes(
            entitlements: "/v2/users/{id}/access", purchases: "v2/users/{id}/store-purchases",
            logIn: "v2/sessions/{id}")
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/api"))
        let provider = try OwnBackendProvider.forTests(server, baseURL: base, routes: routes)
        _ = try await provider.snapshot(for: "bob")
        _ = try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "jws"), for: "bob")
        _ = try await provider.logIn(from: "alice", to: "bob")
        #expect(
            server.requests.map(\.target) == [
                "/api/v2/users/bob/access", "/api/v2/users/bob/store-purchases", "/api/v2/sessions/bob",
            ])
    }

    @Test func malformedRoutesAreRefusedAtConfiguration() {
        for template in [
            "customers/entitlements", "customers/{id}/{id}", "customers/x{id}/e", "customers//{id}", "../{id}",
            "customers/./{id}", "customers/{id}?q=1", "customers/{id}#f", "customers/{id}/é", "",
        ] {
            #expect(throws: EntitlementClientError.self, "\(template)") {
                _ = try OwnBackendProvider.Routes(entitlements: template)
            }
        }
        #expect(throws: Never.self) { _ = try OwnBackendProvider.Routes(entitlements: "{id}") }
    }

    @Test func purchasesPostStoreTokenAndTheProductBought() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, SnapshotBodies.snapshot(for: "alice"))])
        defer { server.stop() }
        let provider = try OwnBackendProvider.forTests(server)
        _ = try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "eyJ.jws.sig"), for: "alice")
        _ = try await provider.reportPurchase(
            StorePurchase(receipt: StoreReceipt(store: .playStore, token: "play-token"), productId: "gold"),
            for: "alice")
        let requests = server.requests
        #expect(requests.map(\.method) == ["POST", "POST"])
        #expect(requests.map(\.target) == ["/customers/alice/purchases", "/customers/alice/purchases"])
        #expect(requests.map { $0.header("Content-Type") } == ["application/json", "application/json"])
        #expect(
            requests.map { $0.header("Authorization") } == Array(repeating: "Bearer session-token-for-tests", count: 2))
        #expect(
            try JSONNode(parsing: requests[0].body).value
                == .object(["store": .string("appStore"), "token": .string("eyJ.jws.sig")]))
        #expect(
            try JSONNode(parsing: requests[1].body).value
                == .object([
                    "store": .string("playStore"), "token": .string("play-token"), "productId": .string("gold"),
                ]))
    }

    @Test func logInPostsFromToTheNewCustomerAndReadsCreated() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .json(200, SnapshotBodies.logIn(for: "bob", created: true)),
            .json(200, SnapshotBodies.logIn(for: "bob", created: false)),
        ])
        defer { server.stop() }
        let asked = HeaderRequests()
        let provider = try OwnBackendProvider.forTests(server) { id in
            asked.note(id)
            return ["Authorization": "Bearer token-of-\(id)"]
        }
        let anonymous = provider.makeAnonymousAppUserId()
        let first = try await provider.logIn(from: anonymous, to: "bob")
        let second = try await provider.logIn(from: anonymous, to: "bob")
        #expect(first.created && !second.created)
        #expect(first.snapshot.appUserId == "bob")
        #expect(first.snapshot.activeEntitlementIds == ["premium"])
        #expect(asked.appUserIds == ["bob", "bob"], "a logIn's headers are the session of the customer logged in to")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/customers/bob/login")
        #expect(request.header("Authorization") == "Bearer token-of-bob")
        #expect(try JSONNode(parsing: request.body).value == .object(["from": .string(anonymous)]))
    }

    @Test func idsTheBackendsRefuseNeverReachTheNetwork() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let asked = HeaderRequests()
        let provider = try OwnBackendProvider.forTests(server) { id in
            asked.note(id)
            return [:]
        }
        for id in ["", "  ", "a/b", "null", String(repeating: "x", count: 101)] {
            #expect(await failure { try await provider.snapshot(for: id) }?.code == .invalidAppUserId)
            #expect(await failure { try await provider.logIn(from: "alice", to: id) }?.code == .invalidAppUserId)
            #expect(
                await failure { try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "t"), for: id) }?
                    .code == .invalidAppUserId)
        }
        #expect(server.requests.isEmpty)
        #expect(asked.appUserIds.isEmpty)
    }
}

/// Anonymous ids, the storage namespace, descriptions.
@Suite(.timeLimit(.minutes(5))) struct OwnBackendConfigurationTests {
    static let base = URL.https("https://api.example.com/")

    @Test func anonymousIdsAreRevenueCatsFormByDefault() throws {
        let provider = OwnBackendProvider(configuration: try .init(baseURL: Self.base))
        let id = provider.makeAnonymousAppUserId()
        #expect(id.hasPrefix("$RCAnonymousID:"))
        #expect(id.utf8.count == "$RCAnonymousID:".utf8.count + 32)
        #expect(AppUserIdCheck(id).anonymousForm == .revenueCat)
        #expect(provider.isAnonymous(id))
        #expect(provider.makeAnonymousAppUserId() != id)
        for notAnonymous in [
            "alice", "$RCAnonymousID:0123456789ABCDEF0123456789abcdef",
            "$RCAnonymousID:0123456789abcdef0123456789abcde",
            "$RCAnonymousID:0123456789abcdef0123456789abcdef0", "x$RCAnonymousID:0123456789abcdef0123456789abcdef",
            "QON_0123456789abcdef0123456789abcdef",
        ] {
            #expect(!provider.isAnonymous(notAnonymous), "\(notAnonymous)")
        }
    }

    @Test func anotherAnonymousFormCanBeConfigured() throws {
        let form = try OwnBackendAnonymousIdForm(prefix: "anon_")
        let provider = OwnBackendProvider(configuration: try .init(baseURL: Self.base, anonymousIds: form))
        let id = provider.makeAnonymousAppUserId()
        #expect(id.hasPrefix("anon_") && id.utf8.count == 37)
        #expect(provider.isAnonymous(id))
        #expect(!provider.isAnonymous("$RCAnonymousID:0123456789abcdef0123456789abcdef"))
        for prefix in ["", "a/b", "a b", "a\u{0}", String(repeating: "p", count: 61)] {
            #expect(throws: EntitlementClientError.self) { _ = try OwnBackendAnonymousIdForm(prefix: prefix) }
        }
    }

    @Test func theStorageNamespaceNamesTheServer() throws {
        let one = OwnBackendProvider(configuration: try .init(baseURL: Self.base))
        let same = OwnBackendProvider(configuration: try .init(baseURL: Self.base))
        let other = OwnBackendProvider(configuration: try .init(baseURL: URL.https("https://other.example.com/")))
        #expect(one.provider == .ownBackend)
        #expect(one.storageNamespace == same.storageNamespace)
        #expect(one.storageNamespace != other.storageNamespace)
        let namespace = one.storageNamespace
        #expect(namespace.hasPrefix("ownbackend-"))
        #expect(
            namespace.dropFirst("ownbackend-".count).utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x61...0x66).contains($0)
            })
        #expect(namespace.utf8.count == "ownbackend-".utf8.count + 16)
        // A fixed key keeps one namespace across a move of the server.
        let before = OwnBackendProvider(configuration: try .init(baseURL: Self.base, storageKey: "acme-production"))
        let after = OwnBackendProvider(
            configuration: try .init(baseURL: URL.https("https://api2.example.com/"), storageKey: "acme-production"))
        #expect(before.storageNamespace == after.storageNamespace)
        #expect(before.storageNamespace != one.storageNamespace)
    }

    @Test func plainHTTPOffLoopbackIsRefused() {
        for text in ["http://api.example.com/", "https://user:pw@api.example.com/", "https://api.example.com/?a=1"] {
            #expect(throws: EntitlementClientError.self, "\(text)") {
                _ = try OwnBackendProvider.Configuration(baseURL: URL.https(text))
            }
        }
    }
}

extension URL {
    /// A URL written in a test, or an unusable file URL that fails the test's configuration if mistyped.
    static func https(_ text: String) -> URL {
        URL(string: text) ?? URL(fileURLWithPath: "/dev/null")
    }
}
