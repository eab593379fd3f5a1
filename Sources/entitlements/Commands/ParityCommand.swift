import EntitlementKit
import EntitlementKitMigration
import Foundation

/// `entitlements parity`: two backends' exports of the same customers, compared customer by customer.
enum ParityCommand: Command {
    static let definition = CommandDefinition(
        name: "parity",
        synopsis:
            "[--from PROVIDER] [--at INSTANT] [--json] [--expiry-tolerance SECONDS] [--ignore-field FIELD]... [--join-aliases] [--jobs N] A B",
        summary: "Join two JSON Lines exports on appUserId and compare every customer's access and fields.",
        discussion: """
            Each line of A and B is a vendor response or an envelope {"appUserId", "provider", \
            "response"}; the format is the envelope's provider, else --from, else detected per line (an \
            envelope whose provider contradicts --from is a bad record). Customers are joined on the snapshot's \
            appUserId (the envelope's when given); with --join-aliases a line also joins the customer of the \
            other export whose "aliases" hold its appUserId (a ledger's export lists each customer's other ids \
            there), and is reported under that customer's appUserId in A. The text report starts with the instant \
            ("evaluated at …", "(now)" without --at) and counts customers in A, in B, matched, only \
            in A, only in B, with access differences and with field differences (compared as in \
            'entitlements diff', access differences with both sides' reasons), then lists the first \
            \(ParityText.exampleLimit) examples of each kind; --json prints the complete lists, sorted \
            by appUserId then entitlementId, each access difference with reasonInA and reasonInB. A record that \
            cannot be used (it does not decode, has no appUserId, or repeats an appUserId already seen in \
            its file; with --join-aliases also an id held by two customers, a line whose ids lead to two \
            customers of the other export, or to one already compared with another line) is reported on \
            standard error with its line and counted, and the exit status is 1: parity was not proven.
            """,
        positionals: [
            .init(name: "A", help: "The first export (usually the current backend); - reads standard input."),
            .init(name: "B", help: "The second export (usually the new backend); - reads standard input."),
        ],
        options: [
            CommonOptions.from, CommonOptions.at, CommonOptions.json, CommonOptions.expiryTolerance,
            CommonOptions.ignoreField, joinAliases, CommonOptions.jobs,
        ] + StoreOptions.definitions,
        positionalCount: (2, 2),
        exitStatuses: """
              0 every record compared, at least one customer in both exports, and no customer's access \
            differs; 1 otherwise: some customer's access differs (an access difference, or a customer on \
            one side only who has access there), some records could not be used, or no customer was in \
            both exports ("no customers compared": two empty exports are not parity); 64 usage; 66 cannot open A or B; 74 read or write error
            """
    )

    static let joinAliases = CommandDefinition.Option(
        name: "--join-aliases", valueName: nil,
        help: "Also join a line to the customer of the other export whose aliases hold its appUserId.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let format = try CommonOptions.format(arguments, command: definition.name, context: context)
        let instant = try CommonOptions.instant(arguments, command: definition.name, context: context)
        let options = try CommonOptions.diffOptions(arguments, command: definition.name)
        let jobs = try CommonOptions.jobs(arguments, command: definition.name)
        let inputA = InputFile(argument: arguments.positionals[0])
        let inputB = InputFile(argument: arguments.positionals[1])
        if inputA.isStandardInput, inputB.isStandardInput {
            throw .usage("A and B cannot both be standard input", command: definition.name)
        }
        // Not 65: parity answers "not proven" (1) whenever records could not be compared.
        var readerA = try inputA.lineReader(notJSONLines: .negative)
        var readerB = try inputB.lineReader(notJSONLines: .negative)
        let check = ParityCheck(
            decoder: context.decoder, format: format, at: instant, options: options,
            joiningAliases: arguments.has("--join-aliases"))
        let outcome: ParityCheck.Outcome
        do {
            outcome = try check.run(
                a: &readerA, b: &readerB,
                processor: OrderedLineProcessor(jobs: jobs),
                failed: { side, failure in
                    StandardError.print("error: \((side == .a ? inputA : inputB).displayName): \(failure)")
                },
                progress: { side, count in
                    if count % 1000 == 0 { StandardError.progress("parity: \(side.rawValue): \(count) records read") }
                }
            )
        } catch let failure as InputFile.ReadFailure {
            throw CommandFailure(status: .ioError, message: failure.message)
        } catch {
            throw CommandFailure(status: .ioError, message: "parity stopped: \(error)")
        }
        StandardError.clearProgress()
        let report = outcome.report
        try context.emit(
            arguments.has("--json")
                ? report.jsonValue.prettyText
                : ParityText.render(report, evaluatedAt: CommonOptions.evaluatedAtLine(instant, arguments)))
        if !outcome.isComplete {
            var parts: [String] = []
            if outcome.failuresInA > 0 { parts.append("\(outcome.failuresInA) in \(inputA.displayName)") }
            if outcome.failuresInB > 0 { parts.append("\(outcome.failuresInB) in \(inputB.displayName)") }
            StandardError.print("parity: records not compared: \(parts.joined(separator: ", "))")
            // Records that were not compared may hide access differences: fail closed.
            return .negative
        }
        if report.totals.matched == 0 {
            // Two empty exports (or two with no customer in common) prove nothing: a cut-over gate must
            // not pass because an export script wrote nothing.
            StandardError.print("parity: no customers compared")
            return .negative
        }
        return report.hasAccessDifferences ? .negative : .success
    }
}

/// The human-readable parity report: totals, then the first examples of each kind.
enum ParityText {
    static let exampleLimit = 10

    static func render(_ report: ParityReport, evaluatedAt: String) -> String {
        let totals = report.totals
        let rows: [(String, Int)] = [
            ("customers in A", totals.customersInA),
            ("customers in B", totals.customersInB),
            ("matched", totals.matched),
            ("only in A", totals.onlyInA),
            ("only in B", totals.onlyInB),
            ("with access differences", totals.withAccessDifferences),
            ("with field differences", totals.withFieldDifferences),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        var text = evaluatedAt + "\n"
        for (label, count) in rows {
            text += label + String(repeating: " ", count: width - label.count + 2) + String(count) + "\n"
        }
        text += section("only in A", report.onlyInA.map { $0 })
        text += section("only in B", report.onlyInB.map { $0 })
        text += section(
            "access differences", report.accessDifferences.map { "\($0.appUserId): \($0.difference)" })
        text += section(
            "field differences", report.fieldDifferences.map { "\($0.appUserId): \($0.difference)" })
        if report.oneSidedCustomersWithAccess > 0 {
            let count = report.oneSidedCustomersWithAccess
            text +=
                "\nnote: \(count) customer\(count == 1 ? "" : "s") present on one side only \(count == 1 ? "has" : "have") "
                + "access there; the exit status counts that as an access difference\n"
        }
        return text
    }

    private static func section(_ title: String, _ lines: [String]) -> String {
        guard !lines.isEmpty else { return "" }
        var text = "\n\(title) (\(lines.count)):\n"
        for line in lines.prefix(exampleLimit) { text += "  \(line)\n" }
        if lines.count > exampleLimit {
            text += "  … and \(lines.count - exampleLimit) more (--json lists them all)\n"
        }
        return text
    }
}
