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

    // MARK: backfill

    /// A live Stripe subscription for `product`, its metadata naming no app user id (a vendor's purchase).
    static func subscription(_ id: String, product: String) -> String {
        #"{"id": "\#(id)", "object": "subscription", "status": "active", "created": 1748736000, "start_date": 1748736000, "livemode": true, "customer": "cus_\#(id)", "metadata": {}, "latest_invoice": "in_\#(id)", "cancel_at": null, "cancel_at_period_end": false, "canceled_at": null, "ended_at": null, "trial_start": null, "trial_end": null, "pause_collection": null, "cancellation_details": {"comment": null, "feedback": null, "reason": null}, "collection_method": "charge_automatically", "currency": "usd", "items": {"object": "list", "data": [{"id": "si_\#(id)", "object": "subscription_item", "quantity": 1, "price": {"id": "price_\#(product)", "object": "price", "active": true, "currency": "usd", "lookup_key": null, "product": "\#(product)", "type": "recurring", "unit_amount": 999, "recurring": {"interval": "month", "interval_count": 1, "usage_type": "licensed"}}, "current_period_start": 1748736000, "current_period_end": 1759276800}], "has_more": false, "url": "/v1/subscription_items?subscription=\#(id)"}}"#
    }

    static let at = "2025-06-10T00:00:00Z"

    /// zoe's sub_Z with a document listing the Stripe customer's subscriptions (bob's sub_B too); bob's sub_B
    /// without one; eve's Play purchase known by its order id.
    static func backfillInputs(_ scratch: Scratch) throws -> (plan: String, documents: String) {
        let plan = try scratch.write(
            "plan.jsonl",
            [
                #"{"appUserIds": ["zoe", "\#(anonymousA)"], "purchases": [{"store": "stripe", "subscription": "sub_Z"}]}"#,
                #"{"appUserIds": ["bob"], "purchases": [{"store": "stripe", "subscription": "sub_B"}]}"#,
                #"{"appUserIds": ["eve"], "purchases": [{"store": "googlePlay", "orderId": "GPA.1111-2222-3333-44444"}]}"#,
            ].joined(separator: "\n") + "\n")
        let documents = scratch.url.appendingPathComponent("documents")
        try FileManager.default.createDirectory(
            at: documents.appendingPathComponent("stripe"), withIntermediateDirectories: true)
        let list =
            #"{"object": "list", "data": [\#(subscription("sub_Z", product: "prod_Z")), \#(subscription("sub_B", product: "prod_B"))], "has_more": false, "url": "/v1/subscriptions"}"#
        try Data(list.utf8).write(to: documents.appendingPathComponent("stripe/sub_Z.json"))
        return (plan, documents.path)
    }

    static func backfill(_ plan: String, _ documents: String, state: String, outcomes: String? = nil) async throws
        -> Tool.Result
    {
        var arguments = ["ledger", "backfill", "--plan", plan, "--documents", documents, "--state", state, "--at", at]
        if let outcomes { arguments += ["--outcomes", outcomes] }
        return try await Tool.run(arguments)
    }

    static func jsonLines(_ path: String) throws -> [JSONValue] {
        try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).split(separator: "\n")
            .map { try JSONValue.parse(String($0)) }
    }

    @Test(
        "backfill: only the purchase named is taken from a document; a later document naming no one reaches the customer"
    )
    func backfillAssignsThePurchaseNamed() async throws {
        let scratch = try Scratch()
        let (plan, documents) = try Self.backfillInputs(scratch)
        let state = scratch.url.appendingPathComponent("state").path
        let outcomes = scratch.url.appendingPathComponent("outcomes.jsonl").path
        let run = try await Self.backfill(plan, documents, state: state, outcomes: outcomes)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try Self.jsonLines(outcomes) == [
                try JSONValue.parse(
                    #"{"line": 1, "purchase": {"store": "stripe", "subscription": "sub_Z"}, "outcome": "assigned"}"#),
                try JSONValue.parse(
                    #"{"line": 2, "purchase": {"store": "stripe", "subscription": "sub_B"}, "outcome": "linkedOnly"}"#),
                try JSONValue.parse(
                    #"{"line": 3, "purchase": {"store": "googlePlay", "orderId": "GPA.1111-2222-3333-44444"}, "outcome": "needsPurchaseToken"}"#
                ),
            ])
        #expect(
            run.stderrLines == [
                "backfill: 3 customers (0 done before), 3 purchases: assigned 1, linkedOnly 1, ownedByOther 0, "
                    + "needsPurchaseToken 1, refused 0"
            ])
        let export = try await Tool.run(["ledger", "export", "--state", state, "--at", Self.at])
        var lines = try export.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.map { $0["appUserId"] } == [.string("bob"), .string("eve"), .string("zoe")])
        #expect(lines[2]["activeEntitlementIds"] == .array([.string("prod_Z")]), "bob's sub_B is not zoe's")
        #expect(lines[0]["activeEntitlementIds"] == .array([]))
        #expect(lines[2]["aliases"] == .array([.string(Self.anonymousA)]))

        // Later the server fetches sub_B (its metadata names no one): the purchase-id link gives it to bob.
        let later = try scratch.write(
            "later.jsonl",
            #"{"document": {"source": "stripe", "body": \#(Self.subscription("sub_B", product: "prod_B"))}, "receivedAt": "2025-06-11T00:00:00Z"}"#
                + "\n")
        let replay = try await Tool.run([
            "ledger", "replay", "--state", state, "--at", Self.at, "--outcomes", outcomes, later,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(
            try Self.jsonLines(outcomes) == [
                try JSONValue.parse(#"{"line": 1, "outcome": "applied", "customers": ["bob"]}"#)
            ])
        lines = try replay.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.first?["appUserId"] == .string("bob"))
        #expect(lines.first?["activeEntitlementIds"] == .array([.string("prod_B")]))
    }

    @Test(
        "backfill: a Checkout Session linked by its id reaches its customer though its thread is its payment intent's")
    func backfillLinkFollowsTheSessionIntoItsThread() async throws {
        let scratch = try Scratch()
        let plan = try scratch.write(
            "plan.jsonl",
            #"{"appUserIds": ["sam"], "purchases": [{"store": "stripe", "checkoutSession": "cs_live_S1"}]}"# + "\n")
        let documents = scratch.url.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        let state = scratch.url.appendingPathComponent("state").path
        let backfill = try await Self.backfill(plan, documents.path, state: state)
        #expect(backfill.status == 0, "\(backfill.stderr)")
        let session =
            #"{"id": "cs_live_S1", "object": "checkout.session", "mode": "payment", "status": "complete", "payment_status": "paid", "created": 1748736000, "expires_at": 1748822400, "livemode": true, "customer": "cus_S1", "metadata": {}, "client_reference_id": null, "payment_intent": "pi_S1", "currency": "usd", "amount_total": 4900, "line_items": {"object": "list", "data": [{"id": "li_S1", "object": "item", "quantity": 1, "amount_total": 4900, "currency": "usd", "description": "x", "price": {"id": "price_lifetime", "object": "price", "active": true, "currency": "usd", "lookup_key": null, "product": "prod_Lifetime", "type": "one_time", "unit_amount": 4900}}], "has_more": false, "url": "/v1/checkout/sessions/cs_live_S1/line_items"}}"#
        let log = try scratch.write(
            "log.jsonl",
            #"{"document": {"source": "stripe", "body": \#(session)}, "receivedAt": "2025-06-02T00:00:00Z"}"# + "\n")
        let outcomes = scratch.url.appendingPathComponent("outcomes.jsonl").path
        let replay = try await Tool.run([
            "ledger", "replay", "--state", state, "--at", Self.at, "--outcomes", outcomes, log,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(
            try Self.jsonLines(outcomes) == [
                try JSONValue.parse(#"{"line": 1, "outcome": "applied", "customers": ["sam"]}"#)
            ])
        #expect(replay.stdout.contains(#""prod_Lifetime""#), "\(replay.stdout)")
    }

    /// Every file of a state directory and its bytes.
    static func files(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = URL(fileURLWithPath: directory)
        for case let path as String in FileManager.default.enumerator(atPath: directory) ?? .init() {
            var isDirectory: ObjCBool = false
            let url = root.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test("backfill: a rerun skips the customers done and changes nothing")
    func backfillRerunChangesNothing() async throws {
        let scratch = try Scratch()
        let (plan, documents) = try Self.backfillInputs(scratch)
        let state = scratch.url.appendingPathComponent("state").path
        let first = try await Self.backfill(plan, documents, state: state)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Self.files(state)
        let outcomes = scratch.url.appendingPathComponent("outcomes.jsonl").path
        let again = try await Self.backfill(plan, documents, state: state, outcomes: outcomes)
        #expect(again.status == 0)
        #expect(
            again.stderrLines.first?.hasPrefix("backfill: 3 customers (3 done before), 0 purchases") == true,
            "\(again.stderr)")
        #expect(try Self.jsonLines(outcomes).isEmpty)
        #expect(try Self.files(state) == before)
    }

    @Test("backfill: interrupted after two customers, a second run does the rest and ends where one run ends")
    func backfillResumes() async throws {
        let scratch = try Scratch()
        let (plan, documents) = try Self.backfillInputs(scratch)
        let text = try String(decoding: Data(contentsOf: URL(fileURLWithPath: plan)), as: UTF8.self)
        let firstTwo = try scratch.write(
            "first-two.jsonl", text.split(separator: "\n").prefix(2).joined(separator: "\n") + "\n")
        let state = scratch.url.appendingPathComponent("state").path
        _ = try await Self.backfill(firstTwo, documents, state: state)
        let outcomes = scratch.url.appendingPathComponent("outcomes.jsonl").path
        let resumed = try await Self.backfill(plan, documents, state: state, outcomes: outcomes)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(
            resumed.stderrLines.first?.hasPrefix("backfill: 3 customers (2 done before), 1 purchase") == true,
            "\(resumed.stderr)")
        #expect(try Self.jsonLines(outcomes).map { $0["line"] } == [.integer(3)])

        let whole = scratch.url.appendingPathComponent("whole").path
        _ = try await Self.backfill(plan, documents, state: whole)
        let resumedExport = try await Tool.run(["ledger", "export", "--state", state, "--at", Self.at])
        let wholeExport = try await Tool.run(["ledger", "export", "--state", whole, "--at", Self.at])
        #expect(resumedExport.stdout == wholeExport.stdout)
        #expect(!wholeExport.stdout.isEmpty)
    }

    @Test("backfill: malformed plan lines located, a purchase owned by another, ids of two customers; exit 65")
    func backfillRefusals() async throws {
        let scratch = try Scratch()
        let (plan, documents) = try Self.backfillInputs(scratch)
        let state = scratch.url.appendingPathComponent("state").path
        _ = try await Self.backfill(plan, documents, state: state)
        let second = try scratch.write(
            "second.jsonl",
            [
                #"{"appUserIds": ["ann"], "purchases": [{"store": "stripe", "subscription": "sub_Z"}]}"#,
                #"{"appUserIds": ["zoe"], "purchases": [{"store": "appStore", "originalTransactionId": "12x"}]}"#,
                "",
                #"{"appUserIds": ["zoe", "bob"], "purchases": [{"store": "stripe", "subscription": "sub_Q"}]}"#,
                "not json",
            ].joined(separator: "\n") + "\n")
        let outcomes = scratch.url.appendingPathComponent("outcomes.jsonl").path
        let run = try await Self.backfill(second, documents, state: state, outcomes: outcomes)
        #expect(run.status == 65)
        let lines = try Self.jsonLines(outcomes)
        #expect(lines.map { $0["line"] } == [.integer(1), .integer(2), .integer(4), .integer(5)])
        #expect(
            lines.map { $0["outcome"] } == [
                .string("ownedByOther"), .string("refused"), .string("refused"), .string("refused"),
            ])
        #expect(lines[0]["owner"] == .string("zoe"))
        #expect(lines[1]["purchase"] == nil, "a malformed line names no purchase")
        if case .string(let error)? = lines[2]["error"] {
            #expect(error.hasPrefix("aliasConflict: "), "\(error)")
        } else {
            Issue.record("no error in \(lines[2])")
        }
        #expect(
            run.stderrLines.first?.hasPrefix("error: line 2: purchases[0].originalTransactionId: \"12x\" is not")
                == true, "\(run.stderr)")
        #expect(run.stderrLines.contains { $0.hasPrefix("error: line 5: ") })
    }

    @Test("backfill: usage is 64, a missing documents folder 66")
    func backfillUsage() async throws {
        let scratch = try Scratch()
        let (plan, documents) = try Self.backfillInputs(scratch)
        let state = scratch.url.appendingPathComponent("state").path
        let noPlan = try await Tool.run(["ledger", "backfill", "--documents", documents, "--state", state])
        #expect(noPlan.status == 64)
        let noState = try await Tool.run(["ledger", "backfill", "--plan", plan, "--documents", documents])
        #expect(noState.status == 64)
        let environment = try await Tool.run([
            "ledger", "backfill", "--plan", plan, "--documents", documents, "--state", state, "--environment", "live",
        ])
        #expect(environment.status == 64)
        let noFolder = try await Self.backfill(plan, scratch.url.appendingPathComponent("none").path, state: state)
        #expect(noFolder.status == 66)
        let samePlan = try await Self.backfill(plan, documents, state: state, outcomes: plan)
        #expect(samePlan.status == 64)
        #expect(!FileManager.default.fileExists(atPath: state), "nothing was assigned")
        let help = try await Tool.run(["ledger", "backfill", "--help"])
        #expect(help.stdout.hasPrefix("USAGE: entitlements ledger backfill --plan FILE"))
    }
}
