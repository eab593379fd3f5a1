import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitOwnBackend
import Foundation
import LoopbackHTTPServer
import Testing

/// The headers the app makes: asked once per operation, checked before sending, never shown.
@Suite(.timeLimit(.minutes(5))) struct OwnBackendHeaderTests {
    /// A session token no other text could contain by chance, longer than an error quotes a value.
    static let token = "sess_7f3a9c1e5b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6c8e"

    @Test func theClosureIsAskedOncePerOperationRetriesIncluded() async throws {
        let server = try LoopbackHTTPServer(replies: [
            .text(503, "busy"), .text(503, "busy"), .json(200, SnapshotBodies.snapshot(for: "alice")),
        ])
        defer { server.stop() }
        let asked = HeaderRequests()
        let provider = try OwnBackendProvider.forTests(server) { id in
            asked.note(id)
            return ["Authorization": "Bearer \(Self.token)"]
        }
        _ = try await provider.snapshot(for: "alice")
        #expect(asked.appUserIds == ["alice"])
        #expect(
            server.requests.map { $0.header("Authorization") } == Array(repeating: "Bearer \(Self.token)", count: 3))
    }

    @Test func aClosureThatFailsStopsTheRequest() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, SnapshotBodies.snapshot(for: "alice"))])
        defer { server.stop() }
        struct NoSession: Error {}
        let signedOut = try OwnBackendProvider.forTests(server) { _ in throw NoSession() }
        let error = await failure { try await signedOut.snapshot(for: "alice") }
        #expect(error?.code == .credentialsRefused)
        #expect(error?.message.contains("NoSession") == true)
        let offline = try OwnBackendProvider.forTests(server) { _ in
            throw EntitlementClientError(.offline, "the session could not be refreshed")
        }
        let passedOn = await failure { try await offline.snapshot(for: "alice") }
        #expect(passedOn?.code == .offline)
        #expect(passedOn?.message == "the session could not be refreshed")
        #expect(server.requests.isEmpty)
    }

    @Test func headersThatCouldSplitARequestOrOverrideTheProvidersAreRefusedUnsent() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, SnapshotBodies.snapshot(for: "alice"))])
        defer { server.stop() }
        let refused: [[String: String]] = [
            ["Authorization": "Bearer \(Self.token)\r\nX-Admin: 1"], ["Authorization": "Bearer \(Self.token)\n"],
            ["Authorization": "Bearer \(Self.token)\u{0}"], ["Authorization": "Bearer \(Self.token)é"],
            ["X Bad": Self.token], ["": Self.token], ["X-Bad:": Self.token], ["Content-Type": "text/plain"],
            ["host": "evil.example.com"], ["Accept": "*/*"], ["Content-Length": "0"], ["Transfer-Encoding": "chunked"],
        ]
        for headers in refused {
            let provider = try OwnBackendProvider.forTests(server) { _ in headers }
            let error = try #require(await failure { try await provider.snapshot(for: "alice") })
            #expect(error.code == .credentialsRefused, "\(headers.keys)")
            #expect(!error.message.contains(Self.token))
        }
        #expect(server.requests.isEmpty)
    }

    @Test func aHeaderCarryingTheAppUserIdDoesNotBreakTheSnapshot() async throws {
        // Blanking header values in the answer would turn the snapshot's own appUserId into "<redacted>".
        let id = "customer-4f1c9d2e-8b3a-4e5f-9a6b-7c8d9e0f1a2b"
        let server = try LoopbackHTTPServer(replies: [.json(200, SnapshotBodies.snapshot(for: id))])
        defer { server.stop() }
        let provider = try OwnBackendProvider.forTests(server) { id in ["X-User-Id": id] }
        #expect(try await provider.snapshot(for: id).appUserId == id)
    }

    @Test func noHeaderValueIsEverShownInAnErrorALogLineOrADescription() async throws {
        // The bearer token is echoed without its scheme, the device secret (a value without a scheme) whole.
        let deviceSecret = "dev_0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6c8e7f3a9c1e5b2d4f6a8c0e2b4d6f8a"
        let replies: [LoopbackHTTPServer.Reply] = [
            .json(401, #"{"code": "sessionExpired", "message": "token \#(Self.token) has expired"}"#),
            .json(409, #"{"code": "receiptInUseByOtherUser", "message": "device \#(deviceSecret)"}"#),
            .json(500, #"{"code": "\#(Self.token)"}"#),
            .text(502, "<html>upstream refused Bearer \(Self.token) from \(deviceSecret)</html>"),
            // 200 bodies quoting a value where the decoder would quote it back, cut to 60 characters.
            .json(200, SnapshotBodies.snapshot(for: Self.token)),
            .json(200, SnapshotBodies.snapshot(for: deviceSecret)),
            .json(200, #"{"schemaVersion": "\#(Self.token)"}"#),
            .json(
                200,
                SnapshotBodies.snapshot(for: "alice").replacingOccurrences(
                    of: #""renewState": "willRenew""#, with: #""renewState": 7, "x": "\#(deviceSecret)""#)),
            .json(200, "\(Self.token)"),
        ]
        let log = RecordedLog()
        var texts: [String] = []
        for reply in replies {
            let server = try LoopbackHTTPServer(replies: [reply])
            defer { server.stop() }
            let provider = try OwnBackendProvider.forTests(server, attempts: 1, logger: log.logger) { _ in
                ["Authorization": "Bearer \(Self.token)", "X-Device-Secret": deviceSecret]
            }
            let error = try #require(await failure { try await provider.snapshot(for: "alice") }, "\(reply)")
            var dumped = ""
            dump(error, to: &dumped)
            texts += [error.description, String(reflecting: error), dumped, error.vendorCode ?? ""]
            texts += [
                String(describing: provider), String(reflecting: provider), String(describing: provider.configuration),
            ]
            var dumpedProvider = ""
            dump(provider, to: &dumpedProvider)
            texts.append(dumpedProvider)
            // The server did receive both: the test would prove nothing otherwise.
            #expect(server.requests.first?.header("Authorization") == "Bearer \(Self.token)")
            #expect(server.requests.first?.header("X-Device-Secret") == deviceSecret)
        }
        texts.append(log.text)
        #expect(!log.text.isEmpty)
        for text in texts {
            #expect(!text.contains(Self.token.prefix(24)), "\(text)")
            #expect(!text.contains(deviceSecret.prefix(24)), "\(text)")
        }
    }
}

/// The provider behind the runtime client, as an app uses it.
@Suite(.timeLimit(.minutes(5))) struct OwnBackendThroughTheClientTests {
    @Test func theClientReadsPurchasesAndLogsInThroughTheProvider() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            let segments = request.target.split(separator: "/").map(String.init)
            let id = segments[1].removingPercentEncoding ?? ""
            if segments.last == "login" { return .json(200, SnapshotBodies.logIn(for: id, created: true)) }
            return .json(200, SnapshotBodies.snapshot(for: id))
        }
        defer { server.stop() }
        let provider = try OwnBackendProvider.forTests(server)
        let client = try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), deviceClock: FixedClock(SnapshotBodies.now))
        let anonymous = await client.appUserId
        #expect(provider.isAnonymous(anonymous))
        #expect(await client.isAnonymous)
        let check = await client.checkEntitlements()
        #expect(check.source == .network)
        #expect(check.isActive("premium"))
        _ = try await client.recordPurchase(
            StorePurchase(receipt: StoreReceipt(store: .appStore, token: "jws"), productId: "premium"))
        let logIn = try await client.logIn("bob")
        #expect(logIn.created)
        #expect(await client.appUserId == "bob")
        let encoded = anonymous.replacingOccurrences(of: "$", with: "%24").replacingOccurrences(of: ":", with: "%3A")
        #expect(
            server.requests.map { "\($0.method) \($0.target)" } == [
                "GET /customers/\(encoded)/entitlements", "POST /customers/\(encoded)/purchases",
                "POST /customers/bob/login",
            ])
    }
}
