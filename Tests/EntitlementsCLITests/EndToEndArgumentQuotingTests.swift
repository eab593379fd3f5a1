import Foundation
import LoopbackHTTPServer
import Testing

/// cli.md: "An argument quoted in an error is cut to 60 characters as values from documents are." Each
/// error below once quoted a 200-character argument whole.
@Suite("entitlements: long arguments are cut in errors", .timeLimit(.minutes(5)))
struct EndToEndArgumentQuotingTests {
    typealias Tool = EntitlementsTool

    /// 200 characters: well past the 60 an error may quote.
    static let long = String(repeating: "x", count: 200)

    /// `count` x's, for the part of the argument an error keeps.
    static func kept(_ count: Int) -> String { String(repeating: "x", count: count) }

    @Test func anOptionThatSwallowedTheFileQuotesItsValueCut() async throws {
        let result = try await Tool.run(["check", "--at", Self.long])
        #expect(result.status == 64)
        #expect(
            result.stderrLines.first
                == "error: --at needs an instant, such as 2025-06-01T12:00:00Z; \"\(Self.kept(58))… is not one, "
                + "and FILE is missing")
    }

    @Test func anUnexpectedArgumentIsQuotedCut() async throws {
        let result = try await Tool.run(["validate-user-id", "a", Self.long])
        #expect(result.status == 64)
        #expect(result.stderrLines.first == "error: unexpected argument '\(Self.kept(58))…")
    }

    @Test func aBaseURLWithoutSchemeIsQuotedCutInTheErrorAndInTheSuggestion() async throws {
        let result = try await Tool.run([
            "fetch", "--provider", "revenuecat", "--app-user-id", "alice", "--base-url", Self.long,
        ])
        #expect(result.status == 64)
        #expect(
            result.stderrLines.first
                == "error: --base-url: \"\(Self.kept(58))… is not a URL; add a scheme, such as 'http://\(Self.kept(51))… "
                + "or 'https://…'")
    }

    @Test func aPlainHTTPHostIsQuotedCut() async throws {
        let result = try await Tool.run(
            [
                "fetch", "--provider", "revenuecat", "--app-user-id", "alice", "--base-url",
                "http://\(Self.long).example/",
            ],
            environment: ["REVENUECAT_API_KEY": "appl_CLI-QUOTING-KEY-7c2e"])
        #expect(result.status == 64)
        let line = try #require(result.stderrLines.first)
        #expect(line.contains("plain http to \(Self.kept(59))…; use https"), "\(line)")
        #expect(!line.contains(Self.kept(60)))
    }

    @Test func aRefusedAppUserIdIsQuotedCut() async throws {
        let server = try LoopbackHTTPServer(replies: [.json(200, "{}")])
        defer { server.stop() }
        let id = Self.kept(100) + "/" + Self.kept(99)
        #expect(id.count == 200)
        let result = try await Tool.run(
            [
                "fetch", "--provider", "revenuecat", "--app-user-id", id, "--base-url", server.baseURL.absoluteString,
            ],
            environment: ["REVENUECAT_API_KEY": "appl_CLI-QUOTING-KEY-7c2e"])
        #expect(result.status == 64)
        #expect(
            result.stderrLines == [
                "error: invalidAppUserId: app user id \"\(Self.kept(58))… contains \"/\", which RevenueCat refuses in "
                    + "app user ids"
            ])
        #expect(server.requests.isEmpty)
    }
}
