import EntitlementKit
import Foundation
import Testing

/// `--from stripe` end to end: the built tool reads Stripe objects with and without a catalog, detects
/// them without `--from`, takes `--app-user-id-key`, feeds them to diff and migrate, and refuses what the
/// adapter refuses.
@Suite("entitlements with Stripe documents", .timeLimit(.minutes(5)))
struct EndToEndStripeTests {
    typealias Tool = EntitlementsTool

    static func fixture(_ name: String) -> String { "Fixtures/stripe/" + name }
    static let at = ["--at", "2025-09-15T10:00:00Z"]

    private func converted(_ arguments: [String]) async throws -> JSONValue {
        let result = try await Tool.run(["convert"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        return try JSONValue.parse(Data(result.stdout.utf8))
    }

    private func expected(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Data(try Tool.repositoryFile(Self.fixture(name + ".expected.json")).utf8))
    }

    @Test func convertWithTheCatalogPrintsTheHandWrittenSnapshot() async throws {
        for name in ["combined-full-and-partial-refund", "sub-multi-item", "catalog-lookup-key"] {
            let printed = try await converted(
                ["--from", "STRIPE", "--catalog", Self.fixture("catalog.json")] + Self.at + [
                    Self.fixture(name + ".json")
                ])
            #expect(printed == (try expected(name)), "\(name)")
        }
    }

    @Test func everyFormIsDetectedWithoutFrom() async throws {
        for name in [
            "sub-active-basil", "list-latest-access-wins", "session-paid-lifetime", "event-subscription-updated",
            "combined-events-deletion-wins", "combined-lifetime-beats-subscription",
        ] {
            let printed = try await converted(
                ["--catalog", Self.fixture("catalog.json")] + Self.at + [Self.fixture(name + ".json")])
            #expect(printed == (try expected(name)), "\(name)")
        }
    }

    @Test func theAppUserIdKeyIsConfigurable() async throws {
        let document = #"""
            {"object": "checkout.session", "id": "cs_1", "mode": "setup", "status": "complete", "livemode": true,
             "created": 1750000000, "metadata": {"uid": "user-42", "app_user_id": "other"}}
            """#
        let (file, directory) = try Tool.temporaryFile(named: "session.json", contents: document)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyed = try await converted(["--from", "stripe", "--app-user-id-key", "uid"] + Self.at + [file.path])
        #expect(keyed["appUserId"] == .string("user-42"))
        let plain = try await converted(["--from", "stripe"] + Self.at + [file.path])
        #expect(plain["appUserId"] == .string("other"))
        let empty = try await Tool.run(
            ["convert", "--from", "stripe", "--app-user-id-key", ""] + Self.at + [file.path])
        #expect(empty.status == 64)
    }

    @Test func aPartialListIsRefusedWithItsPath() async throws {
        let result = try await Tool.run(
            ["convert", "--from", "stripe"] + Self.at + [Self.fixture("error-list-has-more.json")])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains("has_more: true says the list is partial: fetch every page and pass them together"))
    }

    @Test func diffComparesTwoStripeDocuments() async throws {
        let result = try await Tool.run(
            ["diff", "--from", "stripe", "--catalog", Self.fixture("catalog.json")] + Self.at + [
                Self.fixture("sub-active-basil.json"), Self.fixture("sub-unpaid.json"),
            ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("pro"))
        let same = try await Tool.run(
            ["diff", "--from", "stripe"] + Self.at + [
                Self.fixture("sub-active-basil.json"), Self.fixture("sub-active-pre-basil.json"),
            ])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    }

    @Test func migrateReadsStripeLinesWithTheCatalog() async throws {
        let subscription = try Tool.repositoryFile(Self.fixture("sub-active-basil.json"))
        let line = try JSONValue.parse(Data(subscription.utf8)).compactText
        let (file, directory) = try Tool.temporaryFile(named: "export.jsonl", contents: line + "\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(
            ["migrate", "--from", "stripe", "--catalog", Self.fixture("catalog.json")] + Self.at + [file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try JSONValue.parse(Data(result.stdout.utf8))
        #expect(printed == (try expected("sub-active-basil")))
    }
}
