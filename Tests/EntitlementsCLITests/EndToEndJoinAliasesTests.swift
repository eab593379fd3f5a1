import EntitlementKit
import Foundation
import Testing

/// `parity --join-aliases`: a vendor's line joins the ledger's customer whose `aliases` hold its id.
@Suite("entitlements parity --join-aliases", .timeLimit(.minutes(5)))
struct EndToEndJoinAliasesTests {
    typealias Tool = EntitlementsTool

    static let instant = "2025-06-15T00:00:00Z"
    static let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"

    /// One unified snapshot line: `pro` active or expired at the instant, `aliases` added by hand.
    static func line(_ appUserId: String, aliases: [String]? = nil, proActive: Bool) -> String {
        guard let at = RFC3339.date(from: instant) else { preconditionFailure("bad test instant") }
        let pro = Entitlement(
            id: "pro", productId: "pro_monthly", renewState: .willRenew, store: .appStore,
            expirationDate: at.addingTimeInterval(proActive ? 86_400 : -86_400), at: at)
        let snapshot = EntitlementSnapshot(
            provider: ProviderID(rawValue: "ledger"), appUserId: appUserId, evaluatedAt: at, entitlements: [pro])
        guard case .object(var members) = snapshot.jsonValue else { preconditionFailure("not an object") }
        members["aliases"] = aliases.map { .array($0.map(JSONValue.string)) }
        return JSONValue.object(members).compactText
    }

    static func files(_ a: [String], _ b: [String]) throws -> (URL, URL, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("join-aliases-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fileA = directory.appendingPathComponent("a.jsonl")
        let fileB = directory.appendingPathComponent("b.jsonl")
        try Data(a.map { $0 + "\n" }.joined().utf8).write(to: fileA)
        try Data(b.map { $0 + "\n" }.joined().utf8).write(to: fileB)
        return (fileA, fileB, directory)
    }

    @Test("the vendor's line for an alias joins the ledger's customer, reported under the ledger's name")
    func aliasOnSideA() async throws {
        let ledger = [Self.line("alice", aliases: [Self.anonymous], proActive: true)]
        let vendor = [Self.line(Self.anonymous, proActive: false)]
        let (a, b, directory) = try Self.files(ledger, vendor)
        defer { try? FileManager.default.removeItem(at: directory) }

        let unjoined = try await Tool.run(["parity", "--json", "--at", Self.instant, a.path, b.path])
        let unjoinedReport = try JSONValue.parse(unjoined.stdout)
        #expect(unjoinedReport["totals"]?["matched"] == .integer(0), "without the option, ids alone join")

        let joined = try await Tool.run(
            ["parity", "--json", "--join-aliases", "--at", Self.instant, a.path, b.path])
        #expect(joined.status == 1, "compared, and access differs")
        let report = try JSONValue.parse(joined.stdout)
        #expect(report["totals"]?["matched"] == .integer(1))
        #expect(report["totals"]?["onlyInA"] == .integer(0))
        #expect(report["totals"]?["onlyInB"] == .integer(0))
        guard case .array(let differences) = report["accessDifferences"] else {
            Issue.record("no accessDifferences list")
            return
        }
        #expect(differences.map { $0["appUserId"] } == [.string("alice")])
    }

    @Test("aliases on the second export join the same way, and agreeing customers are parity")
    func aliasOnSideB() async throws {
        let vendor = [Self.line(Self.anonymous, proActive: true), Self.line("bob", proActive: false)]
        let ledger = [
            Self.line("alice", aliases: [Self.anonymous], proActive: true),
            Self.line("bob", aliases: [], proActive: false),
        ]
        let (a, b, directory) = try Self.files(vendor, ledger)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["parity", "--join-aliases", "--at", Self.instant, a.path, b.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("matched                  2"))
    }

    @Test("a line whose ids lead to two customers, or to one already compared, is reported and not compared")
    func ambiguousJoinsAreNotCompared() async throws {
        let ledger = [
            Self.line("alice", aliases: [Self.anonymous], proActive: true), Self.line("bob", proActive: true),
        ]
        // The vendor holds as two customers what the ledger holds as one (line 2 and 3).
        let vendor = [
            Self.line("carol", aliases: ["alice", "bob"], proActive: true),
            Self.line("alice", proActive: true),
            Self.line(Self.anonymous, proActive: true),
        ]
        let (a, b, directory) = try Self.files(ledger, vendor)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["parity", "--join-aliases", "--at", Self.instant, a.path, b.path])
        #expect(result.status == 1)
        #expect(Self.reports(result, b, line: 1, "joins several customers of A (alice, bob)"), "\(result.stderr)")
        #expect(Self.reports(result, b, line: 3, "already compared with line 2"), "\(result.stderr)")
        #expect(result.stderrLines.last == "parity: records not compared: 2 in \(b.path)")
    }

    @Test("an id two customers of one export hold is refused in that export")
    func anAliasHeldTwiceIsRefused() async throws {
        let ledger = [
            Self.line("alice", aliases: [Self.anonymous], proActive: true),
            Self.line("bob", aliases: [Self.anonymous], proActive: true),
        ]
        let vendor = [Self.line("alice", proActive: true)]
        let (a, b, directory) = try Self.files(ledger, vendor)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["parity", "--join-aliases", "--at", Self.instant, a.path, b.path])
        #expect(result.status == 1)
        #expect(Self.reports(result, a, line: 2, "already appeared on line 1"), "\(result.stderr)")
    }

    /// Whether standard error reports line `line` of `file` with a message containing `text`.
    static func reports(_ result: Tool.Result, _ file: URL, line: Int, _ text: String) -> Bool {
        result.stderrLines.contains { $0.hasPrefix("error: \(file.path): line \(line):") && $0.contains(text) }
    }
}
