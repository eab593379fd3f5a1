import EntitlementKit
import Foundation
import TestSupport
import Testing

/// `entitlements ledger replay` as a user runs it: the log's lines, `--outcomes`, `--state` across two
/// runs, exit statuses 0 / 65 / 64.
@Suite("entitlements ledger replay", .timeLimit(.minutes(5)))
struct ReplayCommandTests {
    struct Run: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    static func run(_ arguments: [String], input: Data? = nil) async throws -> Run {
        try await offThePool {
            let process = Process()
            process.executableURL = try BuiltExecutable.url(named: "entitlements")
            process.arguments = arguments
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                error: String(decoding: err, as: UTF8.self))
        }
    }

    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("LedgerReplay-" + UUID().uuidString)
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    /// A log line for the signed notification `name`, received at `day`.
    static func notificationLine(_ name: String, day: String = "2025-06-01") throws -> String {
        JSONValue.object([
            "notification": .object([
                "source": .string("appStore"), "body": .string(try SignedNotifications.body(name)),
                "headers": .object(["content-type": .string("application/json")]),
            ]),
            "receivedAt": .string(day + "T00:00:00Z"),
        ]).compactText
    }

    static let story = [
        "subscribed", "renewed", "test", "autoRenewOff", "carolSubscribed", "renewed", "expired",
    ]

    func arguments(_ scratch: Scratch, log: String, extra: [String] = []) throws -> [String] {
        let root = scratch.path("root.der")
        try SignedNotifications.resource("ledger-root.der").write(to: URL(fileURLWithPath: root))
        let catalog = scratch.path("catalog.json")
        try Data(#"{"products": {"com.acme.trails.pro.monthly": {"entitlements": ["pro"]}}}"#.utf8)
            .write(to: URL(fileURLWithPath: catalog))
        return [
            "ledger", "replay", "--catalog", catalog, "--root-certificate", root, "--bundle-id", "com.acme.trails",
            "--at", "2025-02-15T00:00:00Z",
        ] + extra + [log]
    }

    @Test func aStoryReplaysToOneSnapshotPerCustomerWithOneOutcomePerLine() async throws {
        let scratch = try Scratch()
        let log = scratch.path("log.jsonl")
        let lines =
            try Self.story.map { try Self.notificationLine($0) } + [
                #"{"logIn": {"from": "$RCAnonymousID:0123456789abcdef0123456789abcdef", "to": "dora"}}"#,
                #"{"link": {"accountToken": "6F1C6F0E-5A9B-4A53-9A51-3C1F5A0D1E11", "appUserId": "alice"}}"#,
            ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
        let run = try await Self.run(try arguments(scratch, log: log, extra: ["--outcomes", scratch.path("o.jsonl")]))
        #expect(run.status == 0, "\(run.error)")
        let outcomes = try String(contentsOfFile: scratch.path("o.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(outcomes.count == 9)
        #expect(
            outcomes.map { $0["outcome"] }
                == [
                    "applied", "applied", "noChange", "applied", "unlinked", "duplicate", "applied", "applied",
                    "applied",
                ].map(JSONValue.string))
        #expect(outcomes[0]["line"] == .integer(1))
        #expect(outcomes[0]["customers"] == .array([.string(AppStoreNotificationTests.alice)]))
        let snapshots = run.output.split(separator: "\n").map { try? EntitlementSnapshot(json: Data($0.utf8)) }
        // The customers by name, sorted by bytes: alice — the placeholder the token made (its id never used)
        // was moved to her by the link — then dora, whose anonymous id is an alias.
        #expect(snapshots.map { $0?.appUserId } == ["alice", "dora"])
        #expect(snapshots.map { $0?.aliases } == [[], ["$RCAnonymousID:0123456789abcdef0123456789abcdef"]])
        #expect(snapshots.first??.isActive("pro") == true)
        #expect(snapshots.first??.provider == ProviderID(rawValue: "ledger"))
    }

    @Test func twoHalvesWithStateGiveWhatOneReplayGives() async throws {
        let scratch = try Scratch()
        let lines = try Self.story.map { try Self.notificationLine($0) }
        for (name, part) in [("whole", lines[...]), ("first", lines[..<3]), ("second", lines[3...])] {
            try Data(part.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: scratch.path(name)))
        }
        let whole = try await Self.run(try arguments(scratch, log: scratch.path("whole")))
        let state = ["--state", scratch.path("state")]
        let first = try await Self.run(try arguments(scratch, log: scratch.path("first"), extra: state))
        let second = try await Self.run(try arguments(scratch, log: scratch.path("second"), extra: state))
        #expect([whole.status, first.status, second.status] == [0, 0, 0])
        #expect(second.output == whole.output)
        #expect(!whole.output.isEmpty)
    }

    @Test func aRefusedLineExits65AndTheRestIsApplied() async throws {
        let scratch = try Scratch()
        let log = scratch.path("log.jsonl")
        let lines = [try Self.notificationLine("forged"), "not json", try Self.notificationLine("subscribed")]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: log))
        let run = try await Self.run(try arguments(scratch, log: log, extra: ["--outcomes", scratch.path("o")]))
        #expect(run.status == 65)
        let outcomes = try String(contentsOfFile: scratch.path("o"), encoding: .utf8).split(separator: "\n")
            .map { try JSONValue.parse(String($0)) }
        #expect(outcomes.map { $0["outcome"] } == ["refused", "refused", "applied"].map(JSONValue.string))
        #expect(outcomes[0]["error"] != nil)
        #expect(run.output.contains(AppStoreNotificationTests.alice))
    }

    @Test func usageErrorsExit64() async throws {
        let scratch = try Scratch()
        #expect(try await Self.run(["ledger", "replay"]).status == 64)
        #expect(try await Self.run(["ledger", "rewind", scratch.path("x")]).status == 64)
        #expect(try await Self.run(["ledger", "replay", "--environment", "staging", scratch.path("x")]).status == 64)
        #expect(
            try await Self.run(["ledger", "replay", "--restore-behavior", "steal", scratch.path("x")]).status == 64)
    }
    // MARK: Stripe

    /// A `customer.subscription.created` for `sub_cli` of customer `cus_cli`, metadata `app_user_id` alice and
    /// `uid` uma, byte for byte as signed below.
    static let stripeEvent =
        #"{"id":"evt_cli_1","object":"event","type":"customer.subscription.created","created":1757930000,"livemode":true,"data":{"object":{"id":"sub_cli","object":"subscription","status":"active","livemode":true,"created":1757930000,"customer":"cus_cli","metadata":{"app_user_id":"alice","uid":"uma"},"items":{"object":"list","has_more":false,"data":[{"id":"si_1","object":"subscription_item","current_period_start":1757930000,"current_period_end":1760522000,"price":{"id":"price_pro","object":"price","product":"prod_Pro"}}]}}}}"#
    static let alphaSecret = "whsec_alpha_0123456789abcdefABCDEF"
    static let betaSecret = "whsec_beta_fedcba9876543210FEDCBA"
    /// HMAC-SHA256 of "1757930400." + the event under each secret, computed with Python's `hmac`.
    static let signedByAlpha = "t=1757930400,v1=0c2ec0a3bd238cbaa9ea20914642171f363848d0f3915d4e309d58cb86387ee5"
    static let signedByBeta = "t=1757930400,v1=246df877296f17df7c8203f96c7ef4cc79f792c43260f8b026690ba74b3d061d"

    static func stripeLine(signature: String?, receivedAt: String = "2025-09-15T10:00:00Z") -> String {
        var headers: [String: JSONValue] = ["Content-Type": .string("application/json")]
        if let signature { headers["Stripe-Signature"] = .string(signature) }
        return JSONValue.object([
            "notification": .object([
                "source": .string("stripe"), "body": .string(stripeEvent), "headers": .object(headers),
            ]),
            "receivedAt": .string(receivedAt),
        ]).compactText
    }

    /// The replay of `lines` with a secret file per entry of `secrets` (written as given).
    func stripeReplay(_ scratch: Scratch, lines: [String], secrets: [String], extra: [String] = []) async throws
        -> Run
    {
        let log = scratch.path("stripe-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: log))
        var arguments = ["ledger", "replay"]
        for (index, secret) in secrets.enumerated() {
            let path = scratch.path("secret-\(index)-\(UUID().uuidString)")
            try Data(secret.utf8).write(to: URL(fileURLWithPath: path))
            arguments += ["--webhook-secret-file", path]
        }
        return try await Self.run(arguments + extra + ["--at", "2025-09-20T00:00:00Z", log])
    }

    @Test func stripeWebhooksVerifyWithAnyConfiguredSecretFile() async throws {
        let scratch = try Scratch()
        let forged = "t=1757930400,v1=" + String(repeating: "0", count: 64)
        let lines = [
            Self.stripeLine(signature: Self.signedByBeta), Self.stripeLine(signature: Self.signedByAlpha),
            Self.stripeLine(signature: forged), Self.stripeLine(signature: nil),
            Self.stripeLine(signature: Self.signedByAlpha, receivedAt: "2025-09-15T10:05:01Z"),
        ]
        // Trailing spaces, tabs, CR and LF of a secret file are not part of the secret.
        let run = try await stripeReplay(
            scratch, lines: lines, secrets: [Self.alphaSecret + " \t\r\n", Self.betaSecret + "\n"],
            extra: ["--outcomes", scratch.path("o")])
        #expect(run.status == 65)
        let outcomes = try String(contentsOfFile: scratch.path("o"), encoding: .utf8).split(separator: "\n")
            .map { try JSONValue.parse(String($0)) }
        #expect(
            outcomes.map { $0["outcome"] }
                == ["applied", "duplicate", "refused", "refused", "refused"].map(JSONValue.string))
        let snapshots = run.output.split(separator: "\n").map { try? EntitlementSnapshot(json: Data($0.utf8)) }
        #expect(snapshots.count == 1)
        #expect(snapshots.first??.appUserId == "alice")
        #expect(snapshots.first??.isActive("prod_Pro") == true)
        #expect(snapshots.first??.verification == .verified)
    }

    @Test func aRotatedOutStripeSecretIsRefusedAndStoresNothing() async throws {
        let scratch = try Scratch()
        let run = try await stripeReplay(
            scratch, lines: [Self.stripeLine(signature: Self.signedByBeta)], secrets: [Self.alphaSecret])
        #expect(run.status == 65)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("line 1"))
        // No secret at all: a Stripe webhook cannot verify.
        let none = try await stripeReplay(scratch, lines: [Self.stripeLine(signature: Self.signedByAlpha)], secrets: [])
        #expect(none.status == 65)
        #expect(none.output.isEmpty)
    }

    @Test func theStripeAppUserIdKeyIsConfigurable() async throws {
        let scratch = try Scratch()
        let run = try await stripeReplay(
            scratch, lines: [Self.stripeLine(signature: Self.signedByAlpha)], secrets: [Self.alphaSecret],
            extra: ["--app-user-id-key", "uid"])
        #expect(run.status == 0, "\(run.error)")
        let snapshot = try EntitlementSnapshot(json: Data(run.output.utf8))
        #expect(snapshot.appUserId == "uma")
        #expect(try await stripeReplay(scratch, lines: [], secrets: [], extra: ["--app-user-id-key", ""]).status == 64)
    }

    @Test func aWebhookSecretFileThatIsNotOneIsUsageAndAnUnreadableOneIs66() async throws {
        let scratch = try Scratch()
        for secret in [" whsec_leading", "sk_live_not_a_webhook_secret", "whsec_inner space", "", "\n"] {
            let run = try await stripeReplay(scratch, lines: [], secrets: [secret])
            #expect(run.status == 64, "\(secret)")
        }
        let missing = try await Self.run([
            "ledger", "replay", "--webhook-secret-file", scratch.path("absent"), scratch.path("log"),
        ])
        #expect(missing.status == 66)
    }

    @Test func aFetchedStripeDocumentLinksThroughARegisteredCustomerId() async throws {
        let scratch = try Scratch()
        let subscription = try JSONValue.parse(
            #"{"id":"sub_doc","object":"subscription","status":"active","livemode":true,"created":1757930000,"customer":"cus_doc","items":{"object":"list","has_more":false,"data":[{"id":"si_1","object":"subscription_item","current_period_end":1760522000,"price":{"id":"price_pro","object":"price","product":"prod_Pro"}}]}}"#
        )
        let lines = [
            #"{"link": {"stripeCustomer": "cus_doc", "appUserId": "zoe"}}"#,
            JSONValue.object([
                "document": .object(["source": .string("stripe"), "body": subscription]),
                "receivedAt": .string("2025-09-15T10:00:00Z"),
            ]).compactText,
        ]
        let catalog = scratch.path("catalog.json")
        try Data(#"{"products": {"price_pro": {"entitlements": ["pro"]}}}"#.utf8).write(
            to: URL(fileURLWithPath: catalog))
        let run = try await stripeReplay(scratch, lines: lines, secrets: [], extra: ["--catalog", catalog])
        #expect(run.status == 0, "\(run.error)")
        let snapshot = try EntitlementSnapshot(json: Data(run.output.utf8))
        #expect(snapshot.appUserId == "zoe")
        #expect(snapshot.isActive("pro"))
        // A fetched document is not signed.
        #expect(snapshot.verification == .notRequested)
    }

    @Test func stateMakesItsMissingParentFolders() async throws {
        let scratch = try Scratch()
        let state = scratch.path("deep/er/state")
        let run = try await stripeReplay(
            scratch, lines: [Self.stripeLine(signature: Self.signedByAlpha)], secrets: [Self.alphaSecret],
            extra: ["--state", state])
        #expect(run.status == 0, "\(run.error)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: state, isDirectory: &isDirectory) && isDirectory.boolValue)
        // The state holds what was applied: a second replay of nothing answers the same customer.
        let again = try await stripeReplay(scratch, lines: [], secrets: [], extra: ["--state", state])
        #expect(again.status == 0)
        #expect(again.output == run.output)
    }
}

/// `convert` and `check` on a Stripe webhook body with `--stripe-signature` (stripe-mapping.md, Webhooks),
/// through the built tool, with the signatures of ``ReplayCommandTests`` (computed with Python's `hmac`).
@Suite("entitlements convert / check with a Stripe signature", .timeLimit(.minutes(5)))
struct StripeSignatureCommandTests {
    func run(_ scratch: ReplayCommandTests.Scratch, _ command: [String], body: String = ReplayCommandTests.stripeEvent)
        async throws -> ReplayCommandTests.Run
    {
        let payload = scratch.path("payload-\(UUID().uuidString).json")
        try Data(body.utf8).write(to: URL(fileURLWithPath: payload))
        let alpha = scratch.path("alpha.txt")
        try Data((ReplayCommandTests.alphaSecret + "\n").utf8).write(to: URL(fileURLWithPath: alpha))
        let named = command.map { $0 == "ALPHA" ? alpha : $0 == "PAYLOAD" ? payload : $0 }
        // The payload goes last unless the command places it (check's FILE comes before its IDs).
        let arguments = command.contains("PAYLOAD") ? named : named + [payload]
        return try await ReplayCommandTests.run(arguments)
    }

    static let signed = ["--stripe-signature", ReplayCommandTests.signedByAlpha, "--webhook-secret-file", "ALPHA"]

    @Test func aSignedWebhookConvertsAsVerified() async throws {
        let scratch = try ReplayCommandTests.Scratch()
        for from in [["--from", "stripe"], ["--from", "STRIPE"], []] {
            let run = try await run(scratch, ["convert"] + from + Self.signed + ["--at", "2025-09-15T10:00:00Z"])
            #expect(run.status == 0, "\(run.error)")
            let snapshot = try EntitlementSnapshot(json: Data(run.output.utf8))
            #expect(snapshot.verification == .verified)
            #expect(snapshot.appUserId == "alice")
            #expect(snapshot.isActive("prod_Pro"))
        }
        let check = try await run(
            scratch,
            ["check", "--from", "stripe"] + Self.signed + ["--at", "2025-09-15T10:00:00Z", "PAYLOAD", "prod_Pro"])
        #expect(check.status == 0, "\(check.error)")
    }

    @Test func aFailedCheckIsADocumentErrorWithNothingOnStandardOutput() async throws {
        let scratch = try ReplayCommandTests.Scratch()
        let beta = ["--stripe-signature", ReplayCommandTests.signedByBeta, "--webhook-secret-file", "ALPHA"]
        let cases: [([String], String)] = [
            (
                ["convert", "--from", "stripe"] + beta + ["--at", "2025-09-15T10:00:00Z"],
                ReplayCommandTests.stripeEvent
            ),
            (
                ["convert", "--from", "stripe"] + Self.signed + ["--at", "2025-09-15T10:05:01Z"],
                ReplayCommandTests.stripeEvent
            ),
            (
                ["convert", "--from", "stripe"] + Self.signed + ["--at", "2025-09-15T09:54:59Z"],
                ReplayCommandTests.stripeEvent
            ),
            // The payload is the file's exact bytes: a final newline is another body.
            (
                ["convert", "--from", "stripe"] + Self.signed + ["--at", "2025-09-15T10:00:00Z"],
                ReplayCommandTests.stripeEvent + "\n"
            ),
            (["check", "--from", "stripe"] + beta + ["--at", "2025-09-15T10:00:00Z"], ReplayCommandTests.stripeEvent),
        ]
        for (command, body) in cases {
            let result = try await run(scratch, command, body: body)
            #expect(result.status == 65, "\(command)")
            #expect(result.output.isEmpty)
            #expect(result.error.contains("Stripe-Signature"), "\(result.error)")
        }
        let wider = try await run(
            scratch,
            ["convert", "--from", "stripe"] + Self.signed + [
                "--at", "2025-09-15T10:05:01Z", "--webhook-tolerance", "301",
            ])
        #expect(wider.status == 0, "\(wider.error)")
    }

    @Test func theWebhookOptionsGoTogetherAndAreChecked() async throws {
        let scratch = try ReplayCommandTests.Scratch()
        let usages: [[String]] = [
            ["convert", "--from", "stripe", "--stripe-signature", ReplayCommandTests.signedByAlpha],
            ["convert", "--from", "stripe", "--webhook-secret-file", "ALPHA"],
            ["convert", "--from", "revenuecat"] + Self.signed,
            ["convert", "--from", "stripe"] + Self.signed + ["--webhook-tolerance", "0"],
            ["convert", "--from", "stripe"] + Self.signed + ["--webhook-tolerance", "-5"],
            ["convert", "--from", "stripe"] + Self.signed + ["--webhook-tolerance", "1.5"],
            ["check", "--from", "stripe", "--webhook-tolerance", "30"],
        ]
        for command in usages {
            let result = try await run(scratch, command)
            #expect(result.status == 64, "\(command): \(result.error)")
            #expect(result.output.isEmpty)
        }
        let missing = try await ReplayCommandTests.run([
            "convert", "--from", "stripe", "--stripe-signature", ReplayCommandTests.signedByAlpha,
            "--webhook-secret-file", scratch.path("absent"), scratch.path("payload"),
        ])
        #expect(missing.status == 66)
    }
}
