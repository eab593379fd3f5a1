import Foundation
import Testing

/// What a new user runs into in the first hour: which instant was judged, forgiving spellings, and
/// messages that name the real mistake.
@Suite("entitlements: the first hour", .timeLimit(.minutes(5)))
struct EndToEndFirstHourTests {
    typealias Tool = EntitlementsTool

    static let activeMonthly = "Fixtures/revenuecat/active-monthly.json"

    @Test func checkNamesTheInstantItJudgedAt() async throws {
        let fixed = try await Tool.run(["check", "--at", "2025-09-15T10:00:00Z", Self.activeMonthly])
        #expect(fixed.status == 0)
        #expect(
            fixed.stdout == """
                evaluated at 2025-09-15T10:00:00Z
                ID   ACTIVE  RENEW STATE  EXPIRES               STORE     PRODUCT               WHY
                pro  yes     willRenew    2025-10-03T12:00:05Z  appStore  com.acme.pro.monthly  until 2025-10-03T12:00:05Z

                """)
        // At the default instant (now, long after this 2025 fixture's expiry) the header says why it is
        // no longer active.
        let now = try await Tool.run(["check", Self.activeMonthly])
        #expect(now.status == 0)
        let lines = now.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("evaluated at 20") == true)
        #expect(lines.first?.hasSuffix("Z (now)") == true)
        #expect(lines.last?.hasPrefix("pro  no ") == true)
    }

    @Test func anInstantOptionThatSwallowedTheFileSaysItNeedsAnInstant() async throws {
        let result = try await Tool.run(["check", "--at", Self.activeMonthly])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines == [
                #"error: --at needs an instant, such as 2025-06-01T12:00:00Z; "Fixtures/revenuecat/active-monthly.json" is not one, and FILE is missing"#,
                "Run 'entitlements check --help' for usage.",
            ])
        // A valid instant with the file really missing is still "missing FILE".
        let missing = try await Tool.run(["check", "--at", "2025-09-15T10:00:00Z"])
        #expect(missing.stderrLines.first == "error: missing FILE")
    }

    @Test func providerAndFieldNamesIgnoreCase() async throws {
        let result = try await Tool.run([
            "check", "--from", "RevenueCat", "--at", "2025-09-15T10:00:00Z", Self.activeMonthly,
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)

        let heidiA = Tool.crossProvider("heidi.revenuecat.json")
        let heidiB = Tool.crossProvider("heidi.qonversion.json")
        let ignoring = try await Tool.run([
            "diff", "--at", "2025-06-15T00:00:00Z", "--ignore-field", "STORE", "--ignore-field", "Present", heidiA,
            heidiB,
        ])
        #expect(ignoring.status == 0)
        #expect(ignoring.stderr.isEmpty)
        #expect(ignoring.stdout == "evaluated at 2025-06-15T00:00:00Z\naccess differences: 0\nfield differences: 0\n")
    }

    @Test(arguments: [
        (
            ["chek", "x.json"], "error: unknown command 'chek'; did you mean 'check'?",
            "Run 'entitlements --help' for usage."
        ),
        (
            ["help", "partiy"], "error: unknown command 'partiy'; did you mean 'parity'?",
            "Run 'entitlements --help' for usage."
        ),
        (
            ["--verison"], "error: unknown option '--verison'; did you mean '--version'?",
            "Run 'entitlements --help' for usage."
        ),
        (
            ["diff", "--ignore-feild", "store", "a", "b"],
            "error: unknown option '--ignore-feild' for 'diff'; did you mean '--ignore-field'?",
            "Run 'entitlements diff --help' for usage."
        ),
        (
            ["convert", "--compcat", "a.json"],
            "error: unknown option '--compcat' for 'convert'; did you mean '--compact'?",
            "Run 'entitlements convert --help' for usage."
        ),
    ])
    func aMisspeltCommandOrOptionGetsASuggestion(arguments: [String], error: String, hint: String) async throws {
        let result = try await Tool.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [error, hint])
    }

    @Test func versionPrintsTheToolsVersion() async throws {
        let result = try await Tool.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == "entitlements 0.1.0-dev\n")
        #expect(try await Tool.run(["--help"]).stdout.contains("'entitlements --version'"))
    }
}
