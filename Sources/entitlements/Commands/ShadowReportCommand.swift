import EntitlementKit
import EntitlementKitMigration
import Foundation

/// `entitlements shadow-report`: shadow reports collected from many devices, added up and gated.
enum ShadowReportCommand: Command {
    static let defaultMinimumComparisons = 1000
    static let defaultMaximumAccessDifferenceRate = 0.001
    /// Malformed lines quoted on standard error before the rest are only counted.
    static let quotedFailureLimit = 20

    static let definition = CommandDefinition(
        name: "shadow-report",
        synopsis: "[--min-comparisons N] [--max-access-difference-rate R] [--json] FILE...",
        summary: "Add up shadow reports collected from many devices and decide whether a cut-over is safe.",
        discussion: """
            Each FILE (a JSON Lines file, a folder of them, or - for standard input) holds ShadowReports in \
            their JSON form, one per line, as an app sends them to its analytics: {"instant", "serving", \
            "shadow", "outcome", …}; keys this version does not know are ignored. The report counts every \
            outcome, the comparisons (agreed and disagreed reports), the access-difference rate (disagreed \
            reports with an access difference over comparisons), and lists the entitlements, and the \
            entitlements' fields, that disagree most often. The gate holds when there are at least N \
            comparisons and the rate is at most R. A malformed line is reported on standard error with its \
            file and line, and no report is printed.
            """,
        positionals: [
            .init(
                name: "FILE...",
                help:
                    "JSON Lines files of reports, folders of them (their files, not hidden, in name order), or - for standard input."
            )
        ],
        options: [
            .init(
                name: "--min-comparisons", valueName: "N",
                help: "Fewest comparisons for the gate to hold. Default: \(defaultMinimumComparisons).",
                expectedValue: .init(description: "a whole number, such as 1000") { Int($0).map { $0 >= 0 } ?? false }),
            .init(
                name: "--max-access-difference-rate", valueName: "R",
                help:
                    "Highest access-difference rate (0 to 1) for the gate to hold. Default: \(defaultMaximumAccessDifferenceRate).",
                expectedValue: .init(description: "a rate from 0 to 1, such as 0.001") { rate($0) != nil }),
            CommonOptions.json,
        ],
        positionalCount: (1, nil),
        exitStatuses: """
              0 the gate holds; 1 it does not (too few comparisons, or too many access differences); 64 usage; \
            65 a malformed line (no report printed); 66 cannot open a FILE; 74 read error
            """
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        var minimum = defaultMinimumComparisons
        if let text = arguments.value("--min-comparisons") {
            guard let value = Int(text), value >= 0 else {
                throw .usage(
                    "--min-comparisons \(ArgumentQuoting.json(text)) is not a whole number of comparisons",
                    command: definition.name)
            }
            minimum = value
        }
        var maximumRate = defaultMaximumAccessDifferenceRate
        if let text = arguments.value("--max-access-difference-rate") {
            guard let value = rate(text) else {
                throw .usage(
                    "--max-access-difference-rate \(ArgumentQuoting.json(text)) is not a rate from 0 to 1",
                    command: definition.name)
            }
            maximumRate = value
        }
        var inputs: [InputFile] = []
        for argument in arguments.positionals { inputs += try files(argument) }
        if inputs.filter(\.isStandardInput).count > 1 {
            throw .usage("standard input (-) can be read only once", command: definition.name)
        }

        var summary = ShadowReportSummary()
        var malformed = 0
        for input in inputs {
            var reader = try input.lineReader(notJSONLines: .dataError)
            do {
                while let line = try reader.next() {
                    let record: ShadowReportRecord
                    switch line.content {
                    case .tooLong(let byteCount):
                        malformed += 1
                        report(
                            LineFailure.tooLong(
                                line: line.number, byteCount: byteCount, limit: reader.maximumLineLength),
                            in: input, count: malformed)
                        continue
                    case .text(let bytes):
                        do throws(DocumentError) {
                            record = try ShadowReportRecord(jsonData: bytes)
                        } catch {
                            malformed += 1
                            report(LineFailure(line: line.number, error: error), in: input, count: malformed)
                            continue
                        }
                    }
                    summary.add(record)
                }
            } catch let failure as InputFile.ReadFailure {
                throw CommandFailure(status: .ioError, message: failure.message)
            } catch {
                throw CommandFailure(status: .ioError, message: "\(input.displayName): cannot read: \(error)")
            }
        }
        if malformed > 0 {
            if malformed > quotedFailureLimit {
                StandardError.print("shadow-report: \(malformed - quotedFailureLimit) more malformed lines")
            }
            StandardError.print("shadow-report: \(malformed) malformed line\(malformed == 1 ? "" : "s"); no report")
            return .dataError
        }
        let holds = summary.tally.holds(minimumComparisons: minimum, maximumAccessDifferenceRate: maximumRate)
        try context.emit(
            arguments.has("--json")
                ? ShadowReportText.json(summary, minimum: minimum, maximumRate: maximumRate, holds: holds).prettyText
                : ShadowReportText.render(summary, minimum: minimum, maximumRate: maximumRate, holds: holds))
        return holds ? .success : .negative
    }

    private static func report(_ failure: LineFailure, in input: InputFile, count: Int) {
        guard count <= quotedFailureLimit else { return }
        StandardError.print("error: \(input.displayName): \(failure)")
    }

    /// A rate from 0 to 1 written as a decimal number.
    static func rate(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, (0...1).contains(value),
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return nil }
        return value
    }

    /// The inputs an argument names: itself, or a folder's files (not hidden, in name order).
    private static func files(_ argument: String) throws(CommandFailure) -> [InputFile] {
        var isDirectory: ObjCBool = false
        guard argument != "-", FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { return [InputFile(argument: argument)] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: argument)
        } catch {
            throw CommandFailure(status: .noInput, message: "\(argument): cannot open: \(error.localizedDescription)")
        }
        let folder = argument.hasSuffix("/") ? argument : argument + "/"
        return names.filter { !$0.hasPrefix(".") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { folder + $0 }
            .filter { path in
                var nested: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &nested) && !nested.boolValue
            }
            .map { InputFile(argument: $0) }
    }
}

/// The `shadow-report` report, as text and as JSON.
enum ShadowReportText {
    static let disagreementLimit = 10

    static func render(_ summary: ShadowReportSummary, minimum: Int, maximumRate: Double, holds: Bool) -> String {
        let tally = summary.tally
        let rows: [(String, Int)] = [
            ("reports", summary.reports),
            ("comparisons", tally.comparisons),
            ("  agreed", tally.agreed),
            ("  with access differences", tally.accessDifferences),
            ("  with field differences only", tally.fieldDifferences),
            ("shadow failed", summary.shadowFailed),
            ("shadow timed out", summary.shadowTimedOut),
            ("write failed", summary.writeFailed),
            ("skipped (anonymous)", tally.skipped),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        var text = ""
        for (label, count) in rows {
            text += label + String(repeating: " ", count: width - label.count + 2) + String(count) + "\n"
        }
        text += "access-difference rate" + String(repeating: " ", count: max(2, width - 20))
        text += "\(decimal(tally.accessDifferenceRate)) (\(tally.accessDifferences) of \(tally.comparisons))\n"
        text += "gate: " + (holds ? "holds" : "does not hold") + " (at least \(minimum) comparisons: "
        text += "\(tally.comparisons); access-difference rate at most \(decimal(maximumRate)): "
        text += "\(decimal(tally.accessDifferenceRate)))\n"
        text += section(
            "access differences by entitlement",
            summary.accessDisagreements.map { ($0.entitlementId, $0.reports) })
        text += section(
            "field differences by entitlement and field",
            summary.fieldDisagreements.map { ("\($0.entitlementId).\($0.field ?? "")", $0.reports) })
        return text
    }

    static func json(_ summary: ShadowReportSummary, minimum: Int, maximumRate: Double, holds: Bool) -> JSONValue {
        let tally = summary.tally
        return .object([
            "reports": .integer(Int64(summary.reports)),
            "comparisons": .integer(Int64(tally.comparisons)),
            "agreed": .integer(Int64(tally.agreed)),
            "withAccessDifferences": .integer(Int64(tally.accessDifferences)),
            "withFieldDifferencesOnly": .integer(Int64(tally.fieldDifferences)),
            "shadowFailed": .integer(Int64(summary.shadowFailed)),
            "shadowTimedOut": .integer(Int64(summary.shadowTimedOut)),
            "writeFailed": .integer(Int64(summary.writeFailed)),
            "skipped": .integer(Int64(tally.skipped)),
            "accessDifferenceRate": .double(tally.accessDifferenceRate),
            "gate": .object([
                "minComparisons": .integer(Int64(minimum)), "maxAccessDifferenceRate": .double(maximumRate),
                "holds": .bool(holds),
            ]),
            "accessDisagreements": .array(
                summary.accessDisagreements.map {
                    .object(["entitlementId": .string($0.entitlementId), "reports": .integer(Int64($0.reports))])
                }),
            "fieldDisagreements": .array(
                summary.fieldDisagreements.map {
                    .object([
                        "entitlementId": .string($0.entitlementId), "field": .string($0.field ?? ""),
                        "reports": .integer(Int64($0.reports)),
                    ])
                }),
        ])
    }

    /// A rate in plain decimal, at most six places, without trailing zeros (`0.0025`, `0`).
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func section(_ title: String, _ rows: [(String, Int)]) -> String {
        guard !rows.isEmpty else { return "" }
        var text = "\n\(title) (\(rows.count)):\n"
        let shown = rows.prefix(disagreementLimit)
        let width = shown.map(\.0.count).max() ?? 0
        for (label, count) in shown {
            text += "  " + label + String(repeating: " ", count: width - label.count + 2) + "\(count) reports\n"
        }
        if rows.count > disagreementLimit {
            text += "  … and \(rows.count - disagreementLimit) more (--json lists them all)\n"
        }
        return text
    }
}
