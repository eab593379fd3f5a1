import EntitlementKit
import Foundation
import Testing

/// The tool with Adapty documents: `--from adapty` and detection for the four shapes, refusals that name
/// the mix-up, and `diff`, `parity` and `migrate` between Adapty and RevenueCat exports of the same
/// customers (written here by hand).
@Suite("entitlements with Adapty documents", .timeLimit(.minutes(5)))
struct EndToEndAdaptyTests {
    typealias Tool = EntitlementsTool

    static let at = ["--at", "2025-06-15T00:00:00Z"]

    /// zoe on RevenueCat: premium renewing until 2025-07-01T09:00:00Z.
    static let zoeRevenueCat = """
        {"request_date": "2025-06-14T23:59:58Z", "subscriber": {"original_app_user_id": "zoe", "first_seen": "2025-01-02T00:00:00Z", \
        "entitlements": {"premium": {"expires_date": "2025-07-01T09:00:00Z", "product_identifier": "premium_monthly", "purchase_date": "2025-06-01T09:00:00Z"}}, \
        "subscriptions": {"premium_monthly": {"purchase_date": "2025-06-01T09:00:00Z", "original_purchase_date": "2025-01-01T09:00:00Z", \
        "expires_date": "2025-07-01T09:00:00Z", "store": "app_store", "is_sandbox": false, "period_type": "normal", "ownership_type": "PURCHASED", \
        "store_transaction_id": "2000000555000006"}}, "non_subscriptions": {}}}
        """
    /// zoe on Adapty (a bridge reply): auto-renew switched off, paid through 2025-06-20T09:00:00Z.
    static let zoeAdapty = """
        {"success": {"profile_id": "5e0c0000-0000-4000-8000-00000000002a", "customer_user_id": "zoe", "timestamp": 1749945598000, \
        "paid_access_levels": {"premium": {"id": "premium", "is_active": true, "vendor_product_id": "premium_monthly", "store": "app_store", \
        "activated_at": "2025-01-01T09:00:00.000Z", "renewed_at": "2025-06-01T09:00:00.000Z", "expires_at": "2025-06-20T09:00:00.000Z", \
        "is_lifetime": false, "will_renew": false, "unsubscribed_at": "2025-06-10T12:00:00.000Z", "is_in_grace_period": false, "is_refund": false, \
        "cancellation_reason": "voluntarily_cancelled"}}, "subscriptions": {}, "non_subscriptions": {}}}
        """
    /// yan on RevenueCat: Google Play `gold` on base plan `gold-monthly`, until 2025-08-01.
    static let yanRevenueCat = """
        {"request_date": "2025-06-14T23:59:58Z", "subscriber": {"original_app_user_id": "yan", "first_seen": "2025-03-01T00:00:00Z", \
        "entitlements": {"premium": {"expires_date": "2025-08-01T00:00:00Z", "product_identifier": "gold", "purchase_date": "2025-07-01T00:00:00Z"}}, \
        "subscriptions": {"gold": {"purchase_date": "2025-07-01T00:00:00Z", "original_purchase_date": "2025-03-01T00:00:00Z", \
        "expires_date": "2025-08-01T00:00:00Z", "store": "play_store", "is_sandbox": false, "period_type": "normal", \
        "product_plan_identifier": "gold-monthly", "store_transaction_id": "GPA.3399-0000-1111-22222..3"}}, "non_subscriptions": {}}}
        """
    /// yan on Adapty (the SDK backend envelope): the same subscription, Adapty's `product:base_plan` id.
    static let yanAdapty = """
        {"data": {"type": "adapty_analytics_profile", "id": "7a000000-0000-4000-8000-000000000007", "attributes": {\
        "profile_id": "7a000000-0000-4000-8000-000000000007", "customer_user_id": "yan", "paid_access_levels": {"premium": {"id": "premium", \
        "is_active": true, "vendor_product_id": "gold:gold-monthly", "store": "play_store", "activated_at": "2025-03-01T00:00:00.000000+0000", \
        "renewed_at": "2025-07-01T00:00:00.000000+0000", "expires_at": "2025-08-01T00:00:00.000000+0000", "is_lifetime": false, \
        "will_renew": true, "is_in_grace_period": false, "is_refund": false}}, "subscriptions": {}, "non_subscriptions": {}}}}
        """
    /// xia on Adapty only (server API v2): premium until 2025-09-01.
    static let xiaAdapty = """
        {"data": {"profile_id": "9c000000-0000-4000-8000-000000000009", "customer_user_id": "xia", "access_levels": [{"access_level_id": "premium", \
        "store": "app_store", "store_product_id": "premium_annual", "purchased_at": "2024-09-01T00:00:00+00:00", \
        "originally_purchased_at": "2024-09-01T00:00:00+00:00", "expires_at": "2025-09-01T00:00:00+00:00", "is_in_grace_period": false}], \
        "subscriptions": [], "non_subscriptions": []}}
        """

    /// Writes `files` into a scratch folder and runs the tool there.
    private func run(_ arguments: [String], files: [String: String]) async throws -> EntitlementsTool.Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("adapty-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, contents) in files {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        return try await Tool.run(arguments, in: directory)
    }

    @Test func checkReadsTheSDKBackendEnvelope() async throws {
        let result = try await Tool.run(
            ["check", "--at", "2025-06-01T12:00:00Z", "Fixtures/adapty/sdk-envelope-active-monthly.json"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                evaluated at 2025-06-01T12:00:00Z
                ID   ACTIVE  RENEW STATE  EXPIRES               STORE     PRODUCT                  WHY
                pro  yes     willRenew    2025-06-14T09:26:53Z  appStore  com.example.pro.monthly  until 2025-06-14T09:26:53Z

                """)
    }

    @Test(
        "the four shapes are detected, and convert prints the fixture's expected snapshot",
        arguments: [
            "sdk-envelope-active-monthly", "server-v1-base-plan-id", "bridge-play-product-base-plan",
            "bridge-success-reply-free-trial", "server-v2-active-renewing",
        ])
    func convertDetectsEachShape(_ name: String) async throws {
        let expected = try JSONValue.parse(Data(try Tool.repositoryFile("Fixtures/adapty/\(name).expected.json").utf8))
        guard case .string(let instant)? = expected["evaluatedAt"] else {
            Issue.record("no evaluatedAt in \(name).expected.json")
            return
        }
        for from in [[], ["--from", "adapty"]] {
            let result = try await Tool.run(["convert"] + from + ["--at", instant, "Fixtures/adapty/\(name).json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try JSONValue.parse(Data(result.stdout.utf8)) == expected, "\(name) \(from)")
        }
    }

    @Test func namingTheWrongFormatSaysWhichItIs() async throws {
        let qonversion = "Fixtures/qonversion/active.json"
        let asAdapty = try await Tool.run(["convert", "--from", "adapty"] + Self.at + [qonversion])
        #expect(asAdapty.status == 65)
        #expect(
            asAdapty.stderr
                == "error: \(qonversion): $: looks like a Qonversion document, not adapty as requested; name qonversion, or let the format be detected\n"
        )
        let adapty = "Fixtures/adapty/bridge-success-reply-free-trial.json"
        let asQonversion = try await Tool.run(["convert", "--from", "qonversion"] + Self.at + [adapty])
        #expect(asQonversion.status == 65)
        #expect(
            asQonversion.stderr
                == "error: \(adapty): $: looks like an Adapty document, not qonversion as requested; name adapty, or let the format be detected\n"
        )
    }

    @Test func diffComparesRevenueCatWithAdapty() async throws {
        let files = ["zoe.revenuecat.json": Self.zoeRevenueCat, "zoe.adapty.json": Self.zoeAdapty]
        let before = try await run(["diff"] + Self.at + ["zoe.revenuecat.json", "zoe.adapty.json"], files: files)
        #expect(before.status == 0)
        #expect(
            before.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                access differences: 0
                field differences: 2
                  premium: renewState A "willRenew", B "cancelled"
                  premium: expirationDate A "2025-07-01T09:00:00Z", B "2025-06-20T09:00:00Z"

                """)
        // After Adapty's paid-through date, the access differs too.
        let after = try await run(
            ["diff", "--at", "2025-06-25T00:00:00Z", "zoe.revenuecat.json", "zoe.adapty.json"], files: files)
        #expect(after.status == 1)
        #expect(
            after.stdout.contains(
                "access differences: 1\n  premium: active in A, not in B (A: until 2025-07-01T09:00:00Z; B: expired 2025-06-20T09:00:00Z)\n"
            ))
    }

    @Test func parityJoinsARevenueCatAndAnAdaptyExport() async throws {
        func line(_ user: String, _ provider: String?, _ document: String) -> String {
            let compact = (try? JSONValue.parse(Data(document.utf8)).compactText) ?? document
            let providerMember = provider.map { #""provider":"\#($0)","# } ?? ""
            return #"{"appUserId":"\#(user)",\#(providerMember)"response":\#(compact)}"#
        }
        let revenueCat = [line("zoe", nil, Self.zoeRevenueCat), line("yan", "revenuecat", Self.yanRevenueCat)]
        let adapty = [
            line("xia", nil, Self.xiaAdapty), line("zoe", nil, Self.zoeAdapty), line("yan", "adapty", Self.yanAdapty),
        ]
        let files = [
            "a.jsonl": revenueCat.joined(separator: "\n") + "\n", "b.jsonl": adapty.joined(separator: "\n") + "\n",
        ]
        let result = try await run(["parity"] + Self.at + ["a.jsonl", "b.jsonl"], files: files)
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                customers in A           2
                customers in B           3
                matched                  2
                only in A                0
                only in B                1
                with access differences  0
                with field differences   1

                only in B (1):
                  xia

                field differences (2):
                  zoe: premium: renewState A "willRenew", B "cancelled"
                  zoe: premium: expirationDate A "2025-07-01T09:00:00Z", B "2025-06-20T09:00:00Z"

                note: 1 customer present on one side only has access there; the exit status counts that as an access difference

                """)

        let migrated = try await run(["migrate"] + Self.at + ["b.jsonl"], files: files)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let snapshots = try migrated.stdout.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        #expect(snapshots.map { $0["appUserId"] } == [.string("xia"), .string("zoe"), .string("yan")])
        #expect(snapshots.allSatisfy { $0["provider"] == .string("adapty") })
        #expect(
            snapshots.map { $0["activeEntitlementIds"] } == Array(repeating: .array([.string("premium")]), count: 3))
    }
}
