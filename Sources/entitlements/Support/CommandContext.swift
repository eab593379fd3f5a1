import EntitlementKit
import EntitlementKitLedger
import EntitlementKitMigration
import Foundation

/// What every command runs with: the formats it reads, the clock for the default `--at`, and standard
/// output.
struct CommandContext {
    var decoder: SnapshotDecoder
    var clock: any WallClock
    var output: OutputStream
    /// Told each stage of every commit of a `--state` store (`ledger replay`, `ledger backfill`): how a test
    /// sees that a command syncs its batched commits before it returns. `nil` in the tool.
    var ledgerCommitObserver: (@Sendable (LedgerCommitStage) -> Void)? = nil

    /// Writes `text` to standard output. A reader that went away is not an error here (the command's
    /// status still tells the answer); any other write failure is.
    func emit(_ text: String) throws(CommandFailure) {
        do throws(OutputStream.WriteError) {
            try output.write(text)
            try output.flush()
        } catch {
            switch error {
            case .closedByReader:
                return
            case .failed(let reason):
                throw CommandFailure(status: .ioError, message: "cannot write to standard output: \(reason)")
            }
        }
    }

    /// The snapshot of one document (a vendor response, a unified snapshot or a JSON Lines envelope).
    /// A document that fails is a `65` failure naming the input, the path, the value and the reason.
    func snapshot(of input: InputFile, format: ProviderID?, at instant: Date) throws(CommandFailure)
        -> EntitlementSnapshot
    {
        let data = try input.readDocument(format: format)
        do {
            return try decoder.snapshot(fromRecord: data, format: format, at: instant)
        } catch {
            if error.kind == .syntax, let failure = input.notJSONFailure(data, format: format) { throw failure }
            if error.kind == .syntax, JSONTextLayout.isJSONLines(data) {
                // Said once, instead of `$: unexpected '{' after the end of the document (line 2)`.
                throw CommandFailure(
                    status: .dataError,
                    message:
                        "\(input.displayName): looks like JSON Lines (one document per line), not a single JSON "
                        + "document; use 'entitlements migrate' or 'entitlements parity' for JSON Lines")
            }
            throw CommandFailure(status: .dataError, message: "\(input.displayName): \(error)")
        }
    }
}

/// Reading the options several commands share.
enum CommonOptions {
    static let from = CommandDefinition.Option(
        name: "--from", valueName: "PROVIDER",
        help: "The input's format: \(Tool.formatNames). Default: detected from the document's shape.")
    static let at = CommandDefinition.Option(
        name: "--at", valueName: "INSTANT",
        help: "Evaluate access at this ISO 8601 instant (2025-06-01T12:00:00Z). Default: now.",
        expectedValue: .init(description: "an instant, such as 2025-06-01T12:00:00Z") { RFC3339.date(from: $0) != nil })
    static let json = CommandDefinition.Option(name: "--json", valueName: nil, help: "Print the report as JSON.")
    static let expiryTolerance = CommandDefinition.Option(
        name: "--expiry-tolerance", valueName: "SECONDS",
        help: "Expiration dates at most this far apart count as equal. Default: 0.")
    static let ignoreField = CommandDefinition.Option(
        name: "--ignore-field", valueName: "FIELD",
        help:
            "Do not compare FIELD (repeatable): present, renewState, expirationDate, store, productId, productPlanId, periodType, isSandbox, grantType, ownershipType.",
        repeatable: true)
    static let jobs = CommandDefinition.Option(
        name: "--jobs", valueName: "N", help: "Decode on N threads. Default: the number of processors.")

    /// `evaluated at 2025-06-01T12:00:00Z`, with `(now)` when `--at` was not given: the first line of
    /// every text report that depends on time, so "ACTIVE no" on an old document explains itself.
    static func evaluatedAtLine(_ instant: Date, _ arguments: ParsedArguments) -> String {
        "evaluated at " + RFC3339.string(from: instant) + (arguments.value("--at") == nil ? " (now)" : "")
    }

    /// `--at`, or the clock's now.
    static func instant(_ arguments: ParsedArguments, command: String, context: CommandContext) throws(CommandFailure)
        -> Date
    {
        guard let text = arguments.value("--at") else { return context.clock.now() }
        guard let date = RFC3339.date(from: text) else {
            throw .usage(
                "--at: \(ArgumentQuoting.json(text)) is not an ISO 8601 instant with a time zone, such as 2025-06-01T12:00:00Z",
                command: command)
        }
        return date
    }

    /// `--from`, checked against the known formats.
    static func format(_ arguments: ParsedArguments, command: String, context: CommandContext) throws(CommandFailure)
        -> ProviderID?
    {
        guard let text = arguments.value("--from") else { return nil }
        let name = ProviderID(named: text)
        guard context.decoder.isKnownFormat(name) else {
            throw .usage(
                "--from: \(ArgumentQuoting.json(text)) is not a known provider (\(context.decoder.formats.map(\.rawValue).joined(separator: ", ")))"
                    + Spelling.hint(for: text, among: context.decoder.formats.map(\.rawValue)),
                command: command)
        }
        return name
    }

    /// `--jobs`, 1…1024; the processor count by default.
    static func jobs(_ arguments: ParsedArguments, command: String) throws(CommandFailure) -> Int {
        guard let text = arguments.value("--jobs") else { return ProcessInfo.processInfo.activeProcessorCount }
        guard let jobs = Int(text), (1...1024).contains(jobs) else {
            throw .usage(
                "--jobs: \(ArgumentQuoting.json(text)) is not a number of threads from 1 to 1024",
                command: command)
        }
        return jobs
    }

    /// `--expiry-tolerance` and `--ignore-field`.
    static func diffOptions(_ arguments: ParsedArguments, command: String) throws(CommandFailure)
        -> SnapshotDiff.Options
    {
        var options = SnapshotDiff.Options()
        if let text = arguments.value("--expiry-tolerance") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw .usage(
                    "--expiry-tolerance: \(ArgumentQuoting.json(text)) is not a number of seconds (0 or more)",
                    command: command)
            }
            options.expiryTolerance = seconds
        }
        for name in arguments.allValues("--ignore-field") {
            guard let field = ComparedField(named: name) else {
                throw .usage(
                    "--ignore-field: \(ArgumentQuoting.json(name)) is not a compared field (\(ComparedField.all.map(\.name).joined(separator: ", ")))",
                    command: command)
            }
            options.fields.remove(field)
        }
        return options
    }
}
