import EntitlementKitMigration
import Foundation

/// `entitlements migrate`: a JSON Lines export to unified snapshots, streaming.
enum MigrateCommand: Command {
    static let definition = CommandDefinition(
        name: "migrate",
        synopsis: "[--from PROVIDER] [--at INSTANT] [--jobs N] [--output FILE] INPUT",
        summary:
            "Convert a JSON Lines export into unified snapshots, one compact JSON line per record, in input order.",
        discussion: """
            Each line of INPUT is a vendor response or an envelope {"appUserId": "...", "provider": \
            "revenuecat", "response": {...}}; the envelope's appUserId becomes the snapshot's. Blank \
            lines are skipped. A line that cannot be converted is reported on standard error as \
            "error: INPUT: line N: <path>: <value> <reason>" and skipped; the run goes on. A summary goes \
            to standard error at the end, and progress while running when standard error is a terminal. \
            Memory stays constant whatever the input's size. A pretty-printed JSON document is refused \
            with one message (use convert or check for one document).
            """,
        positionals: [.init(name: "INPUT", help: "The JSON Lines export; - reads standard input.")],
        options: [
            CommonOptions.from, CommonOptions.at, CommonOptions.jobs,
            .init(name: "--output", valueName: "FILE", help: "Write the snapshots to FILE instead of standard output."),
        ] + StoreOptions.definitions,
        positionalCount: (1, 1),
        exitStatuses:
            "  0 every record converted; 64 usage; 65 some records failed (the others are still written), or INPUT held no record at all; 66 cannot open INPUT; 73 cannot create FILE; 74 write error"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let format = try CommonOptions.format(arguments, command: definition.name, context: context)
        let instant = try CommonOptions.instant(arguments, command: definition.name, context: context)
        let jobs = try CommonOptions.jobs(arguments, command: definition.name)
        let input = InputFile(argument: arguments.positionals[0])
        if let path = arguments.value("--output"), input.isSameFile(as: path) {
            throw .usage(
                "--output \(path) is INPUT itself; it would be emptied before it is read", command: definition.name)
        }
        var reader = try input.lineReader(notJSONLines: .dataError)
        let output =
            try arguments.value("--output").map { (path) throws(CommandFailure) in try OutputStream.creating(path) }
            ?? context.output

        let migration = BulkMigration(decoder: context.decoder, format: format, at: instant)
        let summary: MigrationSummary
        do {
            summary = try migration.run(
                &reader,
                processor: OrderedLineProcessor(jobs: jobs),
                write: { try output.write($0) },
                failed: { StandardError.print("error: \(input.displayName): \($0)") },
                progress: { summary in
                    if summary.records % 1000 == 0 { StandardError.progress("migrate: \(summary)") }
                }
            )
            try output.flush()
        } catch OutputStream.WriteError.closedByReader {
            // The reader of standard output went away (`| head`): stop quietly, like any filter.
            StandardError.clearProgress()
            return .success
        } catch OutputStream.WriteError.failed(let reason) {
            throw CommandFailure(status: .ioError, message: "cannot write the snapshots: \(reason)")
        } catch let failure as InputFile.ReadFailure {
            throw CommandFailure(status: .ioError, message: failure.message)
        } catch {
            throw CommandFailure(status: .ioError, message: "migrate stopped: \(error)")
        }
        StandardError.print("migrate: \(summary)")
        if summary.records == 0 {
            // An export script that silently wrote nothing must not pass as a clean migration.
            StandardError.print("error: \(input.displayName): no records")
            return .dataError
        }
        return summary.failed > 0 ? .dataError : .success
    }
}
