import Foundation
import LoopbackHTTPServer
import Testing

/// `entitlements fetch --shadow` (swap.md, "The CLI"): two loopback backends with planted differences,
/// failures and delays, the tool run as a user would.
@Suite(.timeLimit(.minutes(5))) struct EndToEndShadowFetchTests {
    static let revenueCatKey = "appl_SHADOW-UNIQUE-KEY-77a1"
    static let qonversionKey = "PV77SHADOW-UNIQUE-KEY-77a1"
    static let instant = "2025-06-15T00:00:00Z"

    /// The vendor response of `appUserId` in a cross-provider export (Fixtures/cross-provider/README.md).
    static func response(of appUserId: String, in export: String) throws -> String {
        let text = try EntitlementsTool.repositoryFile("Fixtures/cross-provider/customers.\(export).jsonl")
        for line in text.split(separator: "\n") {
            let envelope = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard envelope["appUserId"] as? String == appUserId else { continue }
            let body = try JSONSerialization.data(withJSONObject: try #require(envelope["response"]))
            return String(decoding: body, as: UTF8.self)
        }
        throw NotInExport(appUserId: appUserId)
    }

    struct NotInExport: Error { var appUserId: String }

    /// A Qonversion backend knowing `appUserId` as the user of `response`: `v2/identities` names the user,
    /// `v1/user/init` answers with the response.
    static func qonversion(_ reply: LoopbackHTTPServer.Reply, user: String = "QON_ca401000000000000000000000000009")
        throws -> LoopbackHTTPServer
    {
        try LoopbackHTTPServer { request, _ in
            request.target == "/v2/identities" ? .json(200, #"{"data": {"anon_id": "\#(user)"}}"#) : reply
        }
    }

    /// `fetch --provider revenuecat --shadow qonversion` against the two servers, with `extra` arguments.
    static func shadowFetch(
        _ appUserId: String, revenueCat: LoopbackHTTPServer, qonversion: LoopbackHTTPServer, _ extra: [String] = []
    ) async throws -> EntitlementsTool.Result {
        let result = try await EntitlementsTool.run(
            [
                "fetch", "--provider", "revenuecat", "--app-user-id", appUserId, "--at", instant,
                "--base-url", revenueCat.baseURL.absoluteString, "--shadow", "qonversion",
                "--shadow-base-url", qonversion.baseURL.absoluteString,
            ] + extra,
            environment: ["REVENUECAT_API_KEY": revenueCatKey, "QONVERSION_PROJECT_KEY": qonversionKey])
        for key in [revenueCatKey, qonversionKey] {
            #expect(!result.stdout.contains(key) && !result.stderr.contains(key), "the key was printed")
        }
        return result
    }

    /// What `convert --at` prints for `appUserId`'s response in `export`, with the snapshot's provider.
    static func converted(_ appUserId: String, in export: String) async throws -> String {
        let (file, directory) = try EntitlementsTool.temporaryFile(
            named: "\(appUserId).json", contents: try response(of: appUserId, in: export))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await EntitlementsTool.run(["convert", "--at", instant, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func agreeingBackendsPrintTheServedSnapshotAndExitZero() async throws {
        let revenueCat = try LoopbackHTTPServer(replies: [.json(200, try Self.response(of: "alice", in: "revenuecat"))])
        let qonversion = try Self.qonversion(.json(200, try Self.response(of: "alice", in: "qonversion")))
        defer {
            revenueCat.stop()
            qonversion.stop()
        }
        let result = try await Self.shadowFetch("alice", revenueCat: revenueCat, qonversion: qonversion)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == (try await Self.converted("alice", in: "revenuecat")))
        #expect(revenueCat.requests.map(\.target) == ["/v1/subscribers/alice"])
        #expect(qonversion.requests.map(\.target) == ["/v2/identities", "/v1/user/init"])
    }

    @Test func anAccessDifferenceIsOneLineAndExitsOne() async throws {
        let revenueCat = try LoopbackHTTPServer(replies: [.json(200, try Self.response(of: "carol", in: "revenuecat"))])
        let qonversion = try Self.qonversion(.json(200, try Self.response(of: "carol", in: "qonversion")))
        defer {
            revenueCat.stop()
            qonversion.stop()
        }
        let result = try await Self.shadowFetch("carol", revenueCat: revenueCat, qonversion: qonversion)
        #expect(result.status == 1)
        #expect(
            result.stderrLines == [
                "access: premium active on revenuecat (until 2025-07-05T08:00:00Z), inactive on qonversion (expired 2025-06-05T08:00:00Z)",
                #"field: premium.expirationDate "2025-07-05T08:00:00Z" on revenuecat, "2025-06-05T08:00:00Z" on qonversion"#,
            ])
        #expect(result.stdout == (try await Self.converted("carol", in: "revenuecat")))
    }

    @Test func aFieldDifferenceIsALineButExitsZeroAndTheToleranceAppliesToIt() async throws {
        let bobA = try Self.response(of: "bob", in: "revenuecat")
        let bobB = try Self.response(of: "bob", in: "qonversion")
        for (extra, lines) in [
            (
                [String](),
                [
                    #"field: premium.expirationDate "2025-07-03T10:00:00Z" on revenuecat, "2025-07-03T10:00:30Z" on qonversion"#
                ]
            ),
            (["--expiry-tolerance", "30"], []),
        ] {
            let revenueCat = try LoopbackHTTPServer(replies: [.json(200, bobA)])
            let qonversion = try Self.qonversion(.json(200, bobB))
            defer {
                revenueCat.stop()
                qonversion.stop()
            }
            let result = try await Self.shadowFetch("bob", revenueCat: revenueCat, qonversion: qonversion, extra)
            #expect(result.status == 0, "\(extra)")
            #expect(result.stderrLines == lines, "\(extra)")
        }
    }

    @Test func serveEitherPrintsTheMergeThatGrantsWhatEitherGrants() async throws {
        // ivan: nothing on RevenueCat, premium granted by hand on Qonversion.
        let revenueCat = try LoopbackHTTPServer(replies: [.json(200, try Self.response(of: "ivan", in: "revenuecat"))])
        let qonversion = try Self.qonversion(.json(200, try Self.response(of: "ivan", in: "qonversion")))
        defer {
            revenueCat.stop()
            qonversion.stop()
        }
        let serving = try await Self.shadowFetch("ivan", revenueCat: revenueCat, qonversion: qonversion)
        let either = try await Self.shadowFetch(
            "ivan", revenueCat: revenueCat, qonversion: qonversion, ["--serve", "either"])
        for result in [serving, either] {
            #expect(result.status == 1)
            #expect(
                result.stderrLines == [
                    "access: premium inactive on revenuecat (not listed), active on qonversion (until 2025-12-31T00:00:00Z)"
                ])
        }
        #expect(!serving.stdout.contains(#""premium""#))
        #expect(either.stdout.contains(#""premium""#))
        #expect(
            either.stdout.contains(#""provider" : "revenuecat""#)
                || either.stdout.contains(#""provider": "revenuecat""#))
    }

    @Test func aFailingShadowIsALineNeverTheCommandsFailure() async throws {
        let revenueCat = try LoopbackHTTPServer(replies: [.json(200, try Self.response(of: "alice", in: "revenuecat"))])
        // A refusal that is not retried: a dropped connection is retried with backoff, which on a loaded
        // machine can outlast the 2 s the shadow is waited for (then the line says so instead).
        let qonversion = try LoopbackHTTPServer(replies: [.json(401, #"{"error": {"message": "bad key"}}"#)])
        defer {
            revenueCat.stop()
            qonversion.stop()
        }
        for extra in [[], ["--serve", "either"]] {
            let result = try await Self.shadowFetch("alice", revenueCat: revenueCat, qonversion: qonversion, extra)
            #expect(result.status == 0, "\(extra)")
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            #expect(
                result.stderrLines.first?.hasPrefix("shadow: qonversion: credentialsRefused: ") == true,
                "\(result.stderr)")
            #expect(result.stdout == (try await Self.converted("alice", in: "revenuecat")))
        }
    }

    @Test func aFailingServedBackendFailsTheCommandUnlessEitherMayAnswer() async throws {
        let revenueCat = try LoopbackHTTPServer(replies: [.drop])
        let qonversion = try Self.qonversion(.json(200, try Self.response(of: "alice", in: "qonversion")))
        defer {
            revenueCat.stop()
            qonversion.stop()
        }
        let serving = try await Self.shadowFetch("alice", revenueCat: revenueCat, qonversion: qonversion)
        #expect(serving.status == 69)
        #expect(serving.stdout.isEmpty)
        #expect(serving.stderr.hasPrefix("error: offline: GET /v1/subscribers/{id}:"), "\(serving.stderr)")

        let either = try await Self.shadowFetch(
            "alice", revenueCat: revenueCat, qonversion: qonversion, ["--serve", "either"])
        #expect(either.status == 0)
        #expect(either.stderrLines.count == 1)
        #expect(either.stderrLines.first?.hasPrefix("served: revenuecat: offline: ") == true, "\(either.stderr)")
        #expect(either.stderrLines.first?.hasSuffix("(answered by qonversion)") == true, "\(either.stderr)")
        #expect(either.stdout.contains(#""premium""#))
    }

    @Test func aShadowLaterThanTwoSecondsIsNotWaitedFor() async throws {
        let revenueCat = try LoopbackHTTPServer(replies: [.json(200, try Self.response(of: "alice", in: "revenuecat"))])
        let qonversion = try Self.qonversion(.stall)
        defer {
            revenueCat.stop()
            qonversion.stop()
        }
        let started = ContinuousClock.now
        let result = try await Self.shadowFetch("alice", revenueCat: revenueCat, qonversion: qonversion)
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(result.status == 0)
        #expect(result.stderrLines == ["shadow: qonversion: no answer within 2 s of revenuecat's; not compared"])
        #expect(result.stdout == (try await Self.converted("alice", in: "revenuecat")))
    }

    @Test func anAnonymousCustomerIsNotComparedAndTheShadowNotAsked() async throws {
        let anonymous = "$RCAnonymousID:6f1b1c7e0d2a4f4e9d9c8b7a6f5e4d3c"
        let revenueCat = try LoopbackHTTPServer(replies: [.json(200, try Self.response(of: "alice", in: "revenuecat"))])
        let qonversion = try Self.qonversion(.json(200, try Self.response(of: "alice", in: "qonversion")))
        defer {
            revenueCat.stop()
            qonversion.stop()
        }
        let result = try await Self.shadowFetch(anonymous, revenueCat: revenueCat, qonversion: qonversion)
        #expect(result.status == 0)
        #expect(result.stderrLines == ["shadow: qonversion: not asked: an anonymous customer cannot be compared"])
        #expect(qonversion.requests.isEmpty)
    }

    @Test func shadowOptionsAreCheckedBeforeAnyRequest() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        let keys: [String: String?] = [
            "REVENUECAT_API_KEY": Self.revenueCatKey, "QONVERSION_PROJECT_KEY": Self.qonversionKey,
        ]
        let cases: [([String], String)] = [
            (["--serve", "either"], "error: --serve compares with a shadow backend: add --shadow PROVIDER"),
            (
                ["--shadow", "revenuecat"],
                #"error: --shadow: "revenuecat" is the served backend itself; name the other one"#
            ),
            (
                ["--shadow", "qonversoin"],
                #"error: --shadow: "qonversoin" is not a live backend (revenuecat, qonversion, adapty); did you mean 'qonversion'?"#
            ),
            (["--shadow", "qonversion", "--serve", "both"], "error: --serve"),
            (
                ["--shadow", "qonversion", "--shadow-base-url", "127.0.0.1:8771"],
                #"error: --shadow-base-url: "127.0.0.1:8771" is not a URL; add a scheme, such as 'http://127.0.0.1:8771'"#
            ),
        ]
        for (extra, prefix) in cases {
            let result = try await EntitlementsTool.run(
                ["fetch", "--provider", "revenuecat", "--app-user-id", "alice", "--base-url", base] + extra,
                environment: keys)
            #expect(result.status == 64, "\(extra)")
            #expect(result.stderrLines.first?.hasPrefix(prefix) == true, "\(extra): \(result.stderr)")
        }
        let noScheme = try await EntitlementsTool.run(
            ["fetch", "--provider", "revenuecat", "--app-user-id", "alice", "--base-url", "127.0.0.1:8771"],
            environment: keys)
        #expect(noScheme.status == 64)
        #expect(
            noScheme.stderrLines.first?.hasPrefix(#"error: --base-url: "127.0.0.1:8771" is not a URL; add a scheme"#)
                == true, "\(noScheme.stderr)")
        #expect(server.requests.isEmpty)
    }
}
