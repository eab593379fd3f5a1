import Foundation
import Testing

@Suite("entitlements: help, usage errors and exit statuses", .timeLimit(.minutes(5)))
struct EndToEndUsageTests {
    typealias Tool = EntitlementsTool

    static let commands = ["convert", "check", "diff", "migrate", "parity", "validate-user-id", "fetch", "scenario"]

    @Test func theToolsHelpListsEveryCommand() async throws {
        for flag in ["--help", "-h", "help"] {
            let result = try await Tool.run([flag])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("USAGE: entitlements <command> [options]\n"))
            for command in Self.commands { #expect(result.stdout.contains("\n  \(command) ")) }
        }
    }

    @Test(arguments: commands)
    func everyCommandHasHelp(command: String) async throws {
        let result = try await Tool.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("USAGE: entitlements \(command) "))
        #expect(result.stdout.contains("\nEXIT STATUS:\n"))
        #expect(try await Tool.run(["help", command]).stdout == result.stdout)
    }

    @Test(arguments: ["diff", "parity"])
    func diffAndParityTakeFrom(command: String) async throws {
        let help = try await Tool.run([command, "--help"])
        #expect(help.stdout.hasPrefix("USAGE: entitlements \(command) [--from PROVIDER] "))
        #expect(help.stdout.contains("\n  --from PROVIDER "))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() async throws {
        let result = try await Tool.run(["help", "frobnicate"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["error: unknown command 'frobnicate'", "Run 'entitlements --help' for usage."])
        // Asking for help about help is the tool's help.
        for argument in ["help", "--help", "-h"] {
            let help = try await Tool.run(["help", argument])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("USAGE: entitlements <command> [options]\n"))
        }
    }

    @Test func noArgumentsIsAUsageError() async throws {
        let result = try await Tool.run([])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("USAGE: entitlements <command> [options]\n"))
    }

    @Test(arguments: [
        (["frobnicate"], "error: unknown command 'frobnicate'", "Run 'entitlements --help' for usage."),
        (["--verbose"], "error: unknown option '--verbose'", "Run 'entitlements --help' for usage."),
        (["convert"], "error: missing FILE", "Run 'entitlements convert --help' for usage."),
        (
            ["convert", "--pretty", "x.json"], "error: unknown option '--pretty' for 'convert'",
            "Run 'entitlements convert --help' for usage."
        ),
        (
            ["convert", "-x", "x.json"], "error: unknown option '-x' for 'convert'",
            "Run 'entitlements convert --help' for usage."
        ),
        (
            ["convert", "a.json", "b.json"], "error: unexpected argument 'b.json'",
            "Run 'entitlements convert --help' for usage."
        ),
        (
            ["convert", "--at"], "error: option '--at' needs a value (INSTANT)",
            "Run 'entitlements convert --help' for usage."
        ),
        (
            ["convert", "--compact=yes", "a.json"], "error: option '--compact' takes no value",
            "Run 'entitlements convert --help' for usage."
        ),
        (
            ["convert", "--at", "2025-06-01", "a.json"],
            #"error: --at: "2025-06-01" is not an ISO 8601 instant with a time zone, such as 2025-06-01T12:00:00Z"#,
            "Run 'entitlements convert --help' for usage."
        ),
        (
            ["check", "--at", "2025-06-01T00:00:00Z", "--at", "2025-06-02T00:00:00Z", "a.json"],
            "error: option '--at' given more than once", "Run 'entitlements check --help' for usage."
        ),
        (
            ["convert", "--from", "paddle", "a.json"],
            #"error: --from: "paddle" is not a known provider (revenuecat, qonversion, adapty, appstore, googleplay, stripe, unified)"#,
            "Run 'entitlements convert --help' for usage."
        ),
        (
            ["diff", "--from", "paddle", "a", "b"],
            #"error: --from: "paddle" is not a known provider (revenuecat, qonversion, adapty, appstore, googleplay, stripe, unified)"#,
            "Run 'entitlements diff --help' for usage."
        ),
        (
            ["parity", "--from", "paddle", "a", "b"],
            #"error: --from: "paddle" is not a known provider (revenuecat, qonversion, adapty, appstore, googleplay, stripe, unified)"#,
            "Run 'entitlements parity --help' for usage."
        ),
        (["diff", "a.json"], "error: missing B", "Run 'entitlements diff --help' for usage."),
        (
            ["diff", "-", "-"], "error: A and B cannot both be standard input",
            "Run 'entitlements diff --help' for usage."
        ),
        (
            ["diff", "--expiry-tolerance", "-5", "a", "b"],
            #"error: --expiry-tolerance: "-5" is not a number of seconds (0 or more)"#,
            "Run 'entitlements diff --help' for usage."
        ),
        (
            ["parity", "--ignore-field", "willRenew", "a", "b"],
            #"error: --ignore-field: "willRenew" is not a compared field (present, renewState, expirationDate, store, productId, productPlanId, periodType, isSandbox, grantType, ownershipType, cancellationReason)"#,
            "Run 'entitlements parity --help' for usage."
        ),
        (
            ["migrate", "--jobs", "0", "in.jsonl"],
            #"error: --jobs: "0" is not a number of threads from 1 to 1024"#,
            "Run 'entitlements migrate --help' for usage."
        ),
        (["validate-user-id"], "error: missing ID", "Run 'entitlements validate-user-id --help' for usage."),
        (
            ["validate-user-id", "--json", "alice"], "error: unknown option '--json' for 'validate-user-id'",
            "Run 'entitlements validate-user-id --help' for usage."
        ),
        (
            ["fetch", "--provider", "stripe", "--app-user-id", "alice"],
            #"error: --provider: "stripe" is not a live backend (revenuecat, qonversion, adapty)"#,
            "Run 'entitlements fetch --help' for usage."
        ),
    ])
    func usageErrorsExplainThemselvesAndExit64(arguments: [String], message: String, hint: String) async throws {
        let result = try await Tool.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [message, hint])
    }

    @Test func aMissingInputIs66AndAnUncreatableOutputIs73() async throws {
        let missing = try await Tool.run(["convert", "no/such/file.json"])
        #expect(missing.status == 66)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderrLines == ["error: no/such/file.json: cannot open: No such file or directory"])

        let directory = try await Tool.run(["check", "Fixtures"])
        #expect(directory.status == 66)
        #expect(directory.stderrLines == ["error: Fixtures: cannot open: is a directory"])

        let noOutput = try await Tool.run([
            "migrate", "--output", "no/such/dir/out.jsonl", Tool.crossProvider("customers.qonversion.jsonl"),
        ])
        #expect(noOutput.status == 73)
        #expect(noOutput.stderrLines == ["error: no/such/dir/out.jsonl: cannot create: No such file or directory"])
    }

    @Test func migrateRefusesToWriteOverItsInput() async throws {
        let (file, directory) = try Tool.temporaryFile(named: "export.jsonl", contents: "{}\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["migrate", "--output", "./export.jsonl", "export.jsonl"], in: directory)
        #expect(result.status == 64)
        #expect(
            result.stderrLines.first
                == "error: --output ./export.jsonl is INPUT itself; it would be emptied before it is read")
        #expect(try String(contentsOf: file, encoding: .utf8) == "{}\n")
    }

    @Test(arguments: [
        ("alice", 0, "\"alice\": usable\n"),
        ("-1", 1, "\"-1\": not usable\n  - is a placeholder value on RevenueCat's block-list of app user ids\n"),
        (
            "[object Object]", 1,
            "\"[object Object]\": not usable\n  - is a placeholder value on RevenueCat's block-list of app user ids\n"
        ),
        ("", 1, "\"\": not usable\n  - is empty\n"),
        ("team/alice", 1, "\"team/alice\": not usable\n  - contains \"/\", which RevenueCat refuses in app user ids\n"),
        (
            "QON_0123456789abcdef0123456789abcdef", 1,
            "\"QON_0123456789abcdef0123456789abcdef\": not usable\n  - is a Qonversion anonymous id (QON_ + 32 hex digits), generated by the SDK; it cannot identify a customer\n"
        ),
        (
            " alice", 0,
            "\" alice\": usable, with warnings\n  - warning: has leading or trailing whitespace: RevenueCat's logIn trims it but configure does not, so one person can end up under two ids\n"
        ),
    ])
    func validateUserIdSaysWhetherAndWhy(id: String, status: Int32, output: String) async throws {
        let result = try await Tool.run(["validate-user-id", id])
        #expect(result.status == status)
        #expect(result.stdout == output)
        #expect(result.stderr.isEmpty)
    }

    @Test func validateUserIdTakesAnIdStartingWithDashesAfterDoubleDash() async throws {
        let result = try await Tool.run(["validate-user-id", "--", "--x"])
        #expect(result.status == 0)
        #expect(result.stdout == "\"--x\": usable\n")
    }
}
