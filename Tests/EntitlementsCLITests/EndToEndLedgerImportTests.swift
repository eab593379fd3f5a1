import EntitlementKit
import Foundation
import Testing

/// `entitlements ledger import-plan` and `ledger export` as a user runs them.
@Suite("entitlements ledger import-plan and export", .timeLimit(.minutes(5)))
struct EndToEndLedgerImportTests {
    typealias Tool = EntitlementsTool

    static let header =
        "rc_original_app_user_id,rc_last_seen_app_user_id_alias,store,product_identifier,store_transaction_id,"
        + "original_store_transaction_id,is_sandbox,country"
    static let anonymousA = "$RCAnonymousID:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    static let anonymousC = "$RCAnonymousID:cccccccccccccccccccccccccccccccc"

    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-import-" + UUID().uuidString)
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static let export =
        [
            header,
            "\(anonymousA),zoe,app_store,pro_monthly,1001,1000,false,US",
            "\(anonymousA),zoe,app_store,pro_monthly,1002,1000,false,\"Cote d'Ivoire, \"\"CI\"\"\"",
            "bob,,play_store,pro_yearly,GPA.1111-2222-3333-44444..0,GPA.1111-2222-3333-44444..0,false,DE",
            "bob,,stripe,pro_web,sub_9Z,sub_9Z,false,DE",
            "bob,,amazon,pro_amzn,amzn1,amzn1,false,DE",
            "carl,,app_store,pro_monthly,7,7,true,FR",
        ].joined(separator: "\n") + "\n"

    @Test("the plan on standard output, one customer per line; the counts on standard error")
    func planAndCounts() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("export.csv", Self.export)
        let run = try await Tool.run(["ledger", "import-plan", "--from", "revenuecat-export", file])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(
            lines == [
                try JSONValue.parse(
                    #"{"appUserIds": ["\#(Self.anonymousA)", "zoe"], "purchases": [{"store": "appStore", "originalTransactionId": "1000", "productId": "pro_monthly"}]}"#
                ),
                try JSONValue.parse(
                    #"{"appUserIds": ["bob"], "purchases": [{"store": "googlePlay", "orderId": "GPA.1111-2222-3333-44444", "productId": "pro_yearly"}, {"store": "stripe", "subscription": "sub_9Z", "productId": "pro_web"}]}"#
                ),
            ])
        #expect(
            run.stderrLines == [
                "import-plan: 2 customers, 3 purchases (appStore 1, googlePlay 1, stripe 1) from 6 rows",
                "import-plan: skipped 2 rows: sandbox 1, store amazon 1",
            ])
        let sandbox = try await Tool.run([
            "ledger", "import-plan", "--from", "revenuecat-export", "--environment", "sandbox", file,
        ])
        #expect(sandbox.stdout.split(separator: "\n").count == 1, "carl's sandbox row only")
    }

    @Test("malformed rows are reported with file and line, skipped, and the status is 65")
    func malformedRows() async throws {
        let scratch = try Scratch()
        let text = [
            Self.header,
            "dan,,app_store,pro,\"5\nfive\",5,false,US",  // lines 2-3: the id is fine, the transaction id spans lines
            "dan,,play_store,pro,GPA.12,GPA.12,false,US",  // 4
            "dan,,app_store,pro,6,\"6\"x,false,US",  // 5
            "dan,,app_store,pro,8,8,false",  // 6
        ].joined(separator: "\n")
        let file = try scratch.write("bad.csv", text)
        let run = try await Tool.run(["ledger", "import-plan", "--from", "revenuecat-export", file])
        #expect(run.status == 65)
        #expect(
            Array(run.stderrLines.prefix(3)) == [
                "error: \(file): line 4: original_store_transaction_id: \"GPA.12\" is not a Play order id (GPA. and dash-grouped digits, then ..N on a renewal)",
                "error: \(file): line 5: field 6: text after a closing quote",
                "error: \(file): line 6: has 7 fields where the header has 8",
            ])
        #expect(run.stderrLines.last == "import-plan: skipped 3 rows: malformed 3")
        #expect(run.stdout.contains(#""originalTransactionId":"5""#), "the well-formed row is planned")
    }

    @Test("usage: a missing column names it (64), a missing or unknown --from, an unreadable file is 66")
    func usage() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "narrow.csv", Self.header.replacingOccurrences(of: ",store_transaction_id", with: "") + "\n")
        let missing = try await Tool.run(["ledger", "import-plan", "--from", "revenuecat-export", file])
        #expect(missing.status == 64)
        #expect(missing.stderrLines.first == "error: \(file): missing column store_transaction_id in the header row")
        #expect(missing.stdout.isEmpty)

        let noFrom = try await Tool.run(["ledger", "import-plan", file])
        #expect(noFrom.status == 64)
        let typo = try await Tool.run(["ledger", "import-plan", "--from", "revenuecat", file])
        #expect(typo.status == 64)
        #expect(typo.stderrLines.first?.hasSuffix("did you mean 'revenuecat-export'?") == true, "\(typo.stderr)")
        let environment = try await Tool.run([
            "ledger", "import-plan", "--from", "revenuecat-export", "--environment", "test", file,
        ])
        #expect(environment.status == 64)
        let absent = try await Tool.run([
            "ledger", "import-plan", "--from", "revenuecat-export", scratch.url.appendingPathComponent("none.csv").path,
        ])
        #expect(absent.status == 66)
        let help = try await Tool.run(["ledger", "import-plan", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("USAGE: entitlements ledger import-plan --from revenuecat-export"))
    }

    /// A state made by `ledger replay --state`: zoe (created first, anonymous A aliased) and abe (anonymous C).
    static func state(_ scratch: Scratch) async throws -> (state: String, replay: Tool.Result) {
        let log = try scratch.write(
            "log.jsonl",
            [
                #"{"logIn": {"from": "\#(anonymousA)", "to": "zoe"}}"#,
                #"{"logIn": {"from": "\#(anonymousC)", "to": "abe"}}"#,
            ].joined(separator: "\n") + "\n")
        let state = scratch.url.appendingPathComponent("state").path
        let replay = try await Tool.run([
            "ledger", "replay", "--state", state, "--at", "2025-06-01T00:00:00Z", log,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        return (state, replay)
    }

    @Test("export: each customer by name (its identified id) with its other ids as aliases, sorted by name")
    func exportNamesAndAliases() async throws {
        let scratch = try Scratch()
        let (state, replay) = try await Self.state(scratch)
        let run = try await Tool.run(["ledger", "export", "--state", state, "--at", "2025-06-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.map { $0["appUserId"] } == [.string("abe"), .string("zoe")])
        #expect(
            lines.map { $0["aliases"] } == [.array([.string(Self.anonymousC)]), .array([.string(Self.anonymousA)])])
        #expect(lines.allSatisfy { $0["evaluatedAt"] == .string("2025-06-01T00:00:00Z") })
        #expect(replay.stdout == run.stdout, "the replay prints its customers as the export does")
    }

    @Test("export: no such state is 66; a missing --state or --at is usage")
    func exportFailures() async throws {
        let scratch = try Scratch()
        let absent = scratch.url.appendingPathComponent("absent").path
        let none = try await Tool.run(["ledger", "export", "--state", absent, "--at", "2025-06-01T00:00:00Z"])
        #expect(none.status == 66)
        #expect(none.stderrLines.first == "error: --state: \(absent): no such state")
        #expect(!FileManager.default.fileExists(atPath: absent), "the export creates nothing")
        let noAt = try await Tool.run(["ledger", "export", "--state", scratch.url.path])
        #expect(noAt.status == 64)
        let noState = try await Tool.run(["ledger", "export", "--at", "2025-06-01T00:00:00Z"])
        #expect(noState.status == 64)
        let unknown = try await Tool.run(["ledger", "exprot", "x"])
        #expect(unknown.status == 64)
        #expect(unknown.stderrLines.first?.hasSuffix("did you mean 'export'?") == true, "\(unknown.stderr)")
    }
}
