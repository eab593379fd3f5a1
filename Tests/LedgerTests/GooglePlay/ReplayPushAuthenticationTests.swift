import EntitlementKit
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import Testing

/// `entitlements ledger replay --pubsub-audience --pubsub-service-account --google-keys` as a user runs it:
/// a log line's `headers` carry the push's token; an authenticated void is applied, a forged one refused
/// (65, the rest applied); without the three options a void asks for a refresh; any one alone is usage 64.
@Suite("ledger replay with push authentication", .timeLimit(.minutes(5)))
struct ReplayPushAuthenticationTests {
    typealias Play = GooglePlayLedgerTests
    typealias Authentication = GooglePlayPushAuthenticationTests

    /// A log: a fetched purchase of `tok`, then the void `push`, as the server logged them.
    static func log(_ push: LedgerNotification) -> String {
        let document = JSONValue.object([
            "document": .object([
                "source": .string("googlePlay"), "body": Play.subscription(expiry: "2025-04-01T00:00:00Z"),
                "purchaseToken": .string("tok"),
            ]),
            "receivedAt": .string("2025-02-01T00:00:00Z"),
        ])
        let notification = JSONValue.object([
            "notification": .object([
                "source": .string("googlePlay"), "body": .string(String(decoding: push.body, as: UTF8.self)),
                "headers": .object(push.headers.mapValues { .string($0) }),
            ]),
            "receivedAt": .string(RFC3339.string(from: push.receivedAt)),
        ])
        return document.compactText + "\n" + notification.compactText + "\n"
    }

    static func replay(_ log: String, options: [String]) async throws -> ReplayCommandTests.Run {
        let scratch = try ReplayCommandTests.Scratch()
        try Data(log.utf8).write(to: URL(fileURLWithPath: scratch.path("log.jsonl")))
        try Authentication.signer.get().jwks.write(to: URL(fileURLWithPath: scratch.path("google-keys.json")))
        let resolved = options.map { $0 == "KEYS" ? scratch.path("google-keys.json") : $0 }
        return try await ReplayCommandTests.run(
            ["ledger", "replay", "--package-name", Play.package, "--at", "2025-03-01T00:00:00Z"] + resolved + [
                "--outcomes", scratch.path("outcomes.jsonl"), scratch.path("log.jsonl"),
            ])
    }

    static let authenticated = [
        "--pubsub-audience", Authentication.audience, "--pubsub-service-account", Authentication.email,
        "--google-keys", "KEYS",
    ]

    @Test func anAuthenticatedVoidIsAppliedAForgedOneRefusedAndWithoutTheOptionsItAsksForARefresh() async throws {
        let genuine = try Authentication.signed(Authentication.voided())
        let applied = try await Self.replay(Self.log(genuine), options: Self.authenticated)
        #expect(applied.status == 0, "\(applied.error)")
        #expect(applied.output.contains(#""activeEntitlementIds":[]"#), "the void is applied: \(applied.output)")

        let forged = try Authentication.signed(Authentication.voided()) { $0["aud"] = .string("https://evil.example") }
        let refused = try await Self.replay(Self.log(forged), options: Self.authenticated)
        #expect(refused.status == 65)
        #expect(
            refused.error.contains(
                #"unauthenticated: push "v1" is not authenticated: its token is not for the configured audience (aud)"#),
            "\(refused.error)")
        #expect(
            refused.output.contains(#""activeEntitlementIds":["trails_pro"]"#), "the purchase stays: \(refused.output)")

        let unconfigured = try await Self.replay(Self.log(genuine), options: [])
        #expect(unconfigured.status == 0, "\(unconfigured.error)")
        #expect(unconfigured.output == refused.output, "a void without authentication changes nothing")
    }

    @Test func theThreeOptionsGoTogether() async throws {
        let log = Self.log(Authentication.voided())
        for dropped in [0, 2, 4] {
            var options = Self.authenticated
            options.removeSubrange(dropped...(dropped + 1))
            let result = try await Self.replay(log, options: options)
            #expect(result.status == 64, "\(options): \(result.error)")
            #expect(result.error.contains("go together"), "\(result.error)")
        }
        let notKeys = try await Self.replay(
            log, options: ["--pubsub-audience", "a", "--pubsub-service-account", "b", "--google-keys", "/dev/null"])
        #expect(notKeys.status != 0)
    }
}
