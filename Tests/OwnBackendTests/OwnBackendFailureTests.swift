import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitOwnBackend
import Foundation
import LoopbackHTTPServer
import Testing

/// The server's failures, mapped to the client's codes with the shared transport's retries.
@Suite(.timeLimit(.minutes(5))) struct OwnBackendErrorTests {
    static func read(
        _ replies: [LoopbackHTTPServer.Reply], attempts: Int = 3, maximumBytes: Int = 64 * 1024
    ) async throws -> (error: EntitlementClientError?, server: LoopbackHTTPServer, waits: [Duration]) {
        let server = try LoopbackHTTPServer(replies: replies)
        defer { server.stop() }
        let waits = RecordedWaits()
        let provider = try OwnBackendProvider.forTests(
            server, attempts: attempts, maximumBytes: maximumBytes, waits: waits)
        let error = await failure { try await provider.snapshot(for: "alice") }
        return (error, server, waits.all)
    }

    static let good = LoopbackHTTPServer.Reply.json(200, SnapshotBodies.snapshot(for: "alice"))

    @Test func fiveHundredsAreRetriedThenBackendUnavailable() async throws {
        let recovered = try await Self.read([.text(502, "bad gateway"), .text(503, "busy"), Self.good])
        #expect(recovered.error == nil)
        #expect(recovered.server.requests.count == 3)
        #expect(recovered.waits.count == 2)
        let failed = try await Self.read([.json(500, #"{"code": "internal", "message": "database down"}"#)])
        #expect(failed.error?.code == .backendUnavailable)
        #expect(failed.error?.httpStatus == 500)
        #expect(failed.error?.vendorCode == "internal")
        #expect(failed.error?.message.contains("after 3 attempts") == true)
        #expect(failed.error?.message.contains("database down") == true)
        #expect(failed.server.requests.count == 3)
    }

    @Test func retryAfterIsHonouredAndA429PastTheAttemptsIsBackendUnavailable() async throws {
        let limited = LoopbackHTTPServer.Reply.json(429, "{}", headers: [.init("Retry-After", "2")])
        let recovered = try await Self.read([limited, Self.good])
        #expect(recovered.error == nil)
        #expect(recovered.waits == [.seconds(2)])
        let failed = try await Self.read([limited], attempts: 2)
        #expect(failed.error?.code == .backendUnavailable)
        #expect(failed.error?.httpStatus == 429)
    }

    @Test func refusedCredentialsAreNotRetried() async throws {
        for status in [401, 403] {
            let result = try await Self.read([.json(status, #"{"code": "sessionExpired"}"#), Self.good])
            #expect(result.error?.code == .credentialsRefused)
            #expect(result.error?.httpStatus == status)
            #expect(result.error?.message.contains("credentials") == true)
            #expect(result.server.requests.count == 1)
        }
    }

    @Test func theServersOwnCodesForAReceiptInUseAndARefusedId() async throws {
        let inUse = try await Self.read([
            .json(409, #"{"code": "receiptInUseByOtherUser", "message": "the purchase belongs to another account"}"#)
        ])
        #expect(inUse.error?.code == .receiptInUseByOtherUser)
        #expect(inUse.error?.httpStatus == 409)
        let refusedId = try await Self.read([.json(400, #"{"code": "invalidAppUserId"}"#)])
        #expect(refusedId.error?.code == .invalidAppUserId)
        // The code means something only on a client error: a 5xx stays the server's failure.
        let confused = try await Self.read([.json(503, #"{"code": "receiptInUseByOtherUser"}"#)], attempts: 1)
        #expect(confused.error?.code == .backendUnavailable)
    }

    @Test func otherStatusesAndRedirectsAreBadResponses() async throws {
        for reply in [
            LoopbackHTTPServer.Reply.text(404, "<html>Not Found</html>"),
            .respond(status: 302, headers: [.init("Location", "https://elsewhere.example.com/")], body: Data()),
        ] {
            let result = try await Self.read([reply, Self.good])
            #expect(result.error?.code == .badResponse)
            #expect(result.server.requests.count == 1)
        }
    }

    @Test func aDroppedConnectionIsRetriedThenOffline() async throws {
        let result = try await Self.read([.drop])
        #expect(result.error?.code == .offline)
        #expect(result.server.requests.count == 3)
        #expect(result.waits.count == 2)
    }

    @Test func aBodyOverTheSizeCapIsRefused() async throws {
        let result = try await Self.read([Self.good], maximumBytes: 512)
        #expect(result.error?.code == .badResponse)
        #expect(result.error?.message.contains("larger than 512 bytes") == true)
    }
}

/// A 2xx body that is not a valid snapshot of the customer asked for grants nothing.
@Suite(.timeLimit(.minutes(5))) struct OwnBackendRefusedBodyTests {
    static func refusal(
        _ body: String,
        operation: (OwnBackendProvider) async throws -> Void = {
            _ = try await $0.snapshot(for: "alice")
        }
    ) async throws -> EntitlementClientError {
        let server = try LoopbackHTTPServer(replies: [.json(200, body)])
        defer { server.stop() }
        let provider = try OwnBackendProvider.forTests(server)
        let error = try #require(await failure { try await operation(provider) }, "\(body.prefix(80))")
        #expect(error.code == .badResponse)
        #expect(server.requests.count == 1, "a refused body is not retried")
        return error
    }

    @Test func aSnapshotOfAnotherCustomerIsRefused() async throws {
        let other = try await Self.refusal(SnapshotBodies.snapshot(for: "mallory"))
        #expect(other.documentError?.path.description == "appUserId")
        #expect(other.message.contains("is not the customer asked for"))
        // One byte apart: the precomposed and decomposed "é" are two customers.
        let decomposed = try await Self.refusal(SnapshotBodies.snapshot(for: "cafe\u{301}")) {
            _ = try await $0.snapshot(for: "caf\u{E9}")
        }
        #expect(decomposed.documentError?.path.description == "appUserId")
        let unnamed = try await Self.refusal(SnapshotBodies.snapshot(for: nil))
        #expect(unnamed.documentError?.path.description == "appUserId")
    }

    @Test func bodiesThatAreNotSnapshotsAreRefused() async throws {
        let good = SnapshotBodies.snapshot(for: "alice")
        let cases: [(body: String, path: String)] = [
            ("<html>captive portal</html>", ""),
            ("", ""),
            ("[]", ""),
            (#"{"request_date": "2025-09-15T10:00:00Z", "subscriber": {"entitlements": {}}}"#, "schemaVersion"),
            (good.replacingOccurrences(of: #""schemaVersion": 2"#, with: #""schemaVersion": 99"#), "schemaVersion"),
            (good.replacingOccurrences(of: #""isSandbox": false,"#, with: ""), "entitlements.premium.isSandbox"),
            (
                good.replacingOccurrences(
                    of: #""activeEntitlementIds": ["premium"]"#, with: #""activeEntitlementIds": []"#),
                "activeEntitlementIds"
            ),
            (
                good.replacingOccurrences(of: #""premium": {"id": "premium""#, with: #""premium": {"id": "gold""#),
                "entitlements.premium.id"
            ),
            (
                good.replacingOccurrences(
                    of: #""verification": "verified","#, with: #""verification": "verified", "verification": "failed","#
                ),
                ""
            ),
        ]
        for (body, path) in cases {
            let error = try await Self.refusal(body)
            #expect(error.documentError != nil, "\(body.prefix(40))")
            if !path.isEmpty { #expect(error.documentError?.path.description == path, "\(body.prefix(40))") }
        }
    }

    @Test func logInAnswersAreReadStrictly() async throws {
        let logIn: (OwnBackendProvider) async throws -> Void = {
            _ = try await $0.logIn(from: "$RCAnonymousID:0123456789abcdef0123456789abcdef", to: "bob")
        }
        let snapshot = SnapshotBodies.snapshot(for: "bob")
        let cases: [(body: String, path: String)] = [
            (snapshot, "created"),
            (#"{"created": "yes", "snapshot": \#(snapshot)}"#, "created"),
            (#"{"created": true}"#, "snapshot"),
            (#"{"created": true, "snapshot": null}"#, "snapshot"),
            (
                SnapshotBodies.logIn(for: "$RCAnonymousID:0123456789abcdef0123456789abcdef", created: false),
                "snapshot.appUserId"
            ),
        ]
        for (body, path) in cases {
            let error = try await Self.refusal(body, operation: logIn)
            #expect(error.documentError?.path.description == path, "\(body.prefix(60))")
        }
    }
}
