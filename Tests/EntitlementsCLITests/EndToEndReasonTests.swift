import EntitlementKit
import Foundation
import Testing

/// Every verdict says why (unified-snapshot.md, "Why"): `check`'s WHY column, and both sides' reasons on
/// every access difference `diff` and `parity` report, as text and as JSON.
@Suite("entitlements: reasons in check, diff and parity", .timeLimit(.minutes(5)))
struct EndToEndReasonTests {
    typealias Tool = EntitlementsTool

    @Test func checkSaysAStoreStateThatGrantsNothing() async throws {
        let result = try await Tool.run([
            "check", "--at", "2025-09-15T10:00:00Z", "Fixtures/googleplay/sub-on-hold.json", "acme_pro",
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                evaluated at 2025-09-15T10:00:00Z
                ID        ACTIVE  RENEW STATE   EXPIRES               STORE      PRODUCT   WHY
                acme_pro  no      billingIssue  2025-09-22T10:00:00Z  playStore  acme_pro  store state SUBSCRIPTION_STATE_ON_HOLD

                """)
    }

    @Test func checkSaysARefundWithTheStoresOwnValueAndAGracePeriodWithItsEnd() async throws {
        let store = ["--at", "2025-06-15T12:00:00Z", "--bundle-id", "com.acme.trails", "--from", "appstore"]
        let refunded = try await Tool.run(
            ["check"] + store + [
                "--catalog", "Fixtures/appstore/statuses-refunded.catalog.json",
                "Fixtures/appstore/statuses-refunded.json",
            ])
        #expect(refunded.status == 0, "\(refunded.stderr)")
        #expect(
            refunded.stdout == """
                evaluated at 2025-06-15T12:00:00Z
                ID   ACTIVE  RENEW STATE  EXPIRES               STORE     PRODUCT                     WHY
                pro  no      cancelled    2026-01-01T10:00:00Z  appStore  com.acme.trails.pro.yearly  refunded (REFUND_FULL)

                """)
        let grace = try await Tool.run(
            ["check"] + store + [
                "--catalog", "Fixtures/appstore/statuses-billing-grace-period.catalog.json",
                "Fixtures/appstore/statuses-billing-grace-period.json",
            ])
        #expect(grace.status == 0, "\(grace.stderr)")
        #expect(
            grace.stdout == """
                evaluated at 2025-06-15T12:00:00Z
                ID   ACTIVE  RENEW STATE   EXPIRES               STORE     PRODUCT                      WHY
                pro  yes     billingIssue  2025-06-20T08:00:00Z  appStore  com.acme.trails.pro.monthly  grace until 2025-06-20T08:00:00Z

                """)
    }

    @Test func checkSaysAVendorFlagWithItsSpelling() async throws {
        let result = try await Tool.run([
            "check", "--at", "2025-06-15T00:00:00Z", "Fixtures/qonversion/refund-lifetime.json",
        ])
        #expect(result.stdout.hasSuffix("  vendor says inactive (0)\n"), "\(result.stdout)")
    }

    @Test func parityGivesBothSidesReasonsForEveryAccessDifference() async throws {
        let exports = [
            (Tool.crossProvider("customers.revenuecat.jsonl"), Tool.crossProvider("customers.qonversion.jsonl"), 2),
            (Tool.crossProvider("stores.revenuecat.jsonl"), Tool.crossProvider("stores.appstore.jsonl"), 1),
        ]
        let options = ["--at", "2025-06-15T00:00:00Z", "--catalog", Tool.crossProvider("stores.catalog.json")]
        for (a, b, count) in exports {
            let text = try await Tool.run(["parity"] + options + [a, b])
            let lines = text.stdout.components(separatedBy: "\n")
            let start = try #require(lines.firstIndex(of: "access differences (\(count)):"), "\(text.stdout)")
            let differences = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
            #expect(differences.count == count)
            for line in differences {
                #expect(line.contains(" (A: ") && line.contains("; B: ") && line.hasSuffix(")"), "\(line)")
            }
            let json = try JSONValue.parse(
                Data(try await Tool.run(["parity", "--json"] + options + [a, b]).stdout.utf8))
            guard case .array(let entries)? = json["accessDifferences"] else {
                Issue.record("no accessDifferences")
                continue
            }
            #expect(entries.count == count)
            for entry in entries {
                // A side that lists the entitlement has its reason; one that does not says null.
                #expect(entry["reasonInA"] != nil && entry["reasonInB"] != nil, "\(entry)")
                #expect(entry["reasonInA"] != .null || entry["reasonInB"] != .null)
            }
        }
    }

    @Test func parityTextNamesCarolsAndIvansReasons() async throws {
        let result = try await Tool.run([
            "parity", "--at", "2025-06-15T00:00:00Z", Tool.crossProvider("customers.revenuecat.jsonl"),
            Tool.crossProvider("customers.qonversion.jsonl"),
        ])
        #expect(
            result.stdout.contains(
                """
                access differences (2):
                  carol: premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: expired 2025-06-05T08:00:00Z)
                  ivan: premium: active in B, not in A (A: not listed; B: until 2025-12-31T00:00:00Z)

                """))
    }

    @Test func diffJSONCarriesADenialsCodeAndRaw() async throws {
        // The same Play subscription once on hold and once active: the reasons name the state and the expiry.
        let result = try await Tool.run([
            "diff", "--json", "--at", "2025-09-15T10:00:00Z", "Fixtures/googleplay/sub-on-hold.json",
            "Fixtures/googleplay/sub-with-add-on.json",
        ])
        let report = try JSONValue.parse(Data(result.stdout.utf8))
        guard case .array(let entries)? = report["accessDifferences"] else {
            Issue.record("no accessDifferences")
            return
        }
        let pro = try #require(entries.first { $0["entitlementId"] == .string("acme_pro") })
        #expect(
            pro["reasonInA"]
                == .object(["code": .string("storeState"), "raw": .string("SUBSCRIPTION_STATE_ON_HOLD")]))
        #expect(pro["reasonInB"] == .object(["code": .string("activeUntil"), "date": .string("2025-10-01T00:00:00Z")]))
    }
}
