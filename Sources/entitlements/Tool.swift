import EntitlementKit
import EntitlementKitMigration

/// The `entitlements` tool: picks the command, parses its arguments, runs it, and turns failures into
/// one message on standard error and an exit status.
enum Tool {
    /// Every command, in the order `--help` lists them. To add one, write a type conforming to
    /// ``Command`` in its own file under `Commands/` and list it here: parsing, `--help`, "did you mean"
    /// and `help <command>` follow from its ``CommandDefinition``.
    static var commands: [any Command.Type] {
        [
            ConvertCommand.self, CheckCommand.self, DiffCommand.self, MigrateCommand.self, ParityCommand.self,
            ValidateUserIdCommand.self, FetchCommand.self, ScenarioCommand.self, LedgerCommand.self,
            ShadowReportCommand.self,
        ]
    }

    /// What `--version` prints. No release is tagged yet: this is the version the next one will have,
    /// marked as a development build.
    static let version = "0.1.0-dev"

    static var help: String {
        var text = "USAGE: entitlements <command> [options]\n\n"
        text +=
            TextWrapping.wrap(
                """
                Map RevenueCat, Qonversion and Adapty customer responses into EntitlementKit's unified snapshot, check \
                access, and compare two backends before a migration.
                """) + "\n\nCOMMANDS:\n"
        for command in commands {
            let name = command.definition.name
            let body = TextWrapping.wrap(command.definition.summary, indent: 22)
            text += "  " + name + String(repeating: " ", count: max(2, 20 - name.count)) + body.dropFirst(22) + "\n"
        }
        text +=
            "\n"
            + TextWrapping.wrap(
                """
                Inputs are a file path or - for standard input. Formats: \(formatNames), detected from the \
                document's shape unless --from names one. Exit statuses: 0 success; 1 a negative answer \
                (check, diff, parity, validate-user-id); and, following sysexits.h, 64 usage, 65 bad data, \
                66 cannot open input, 69 backend unavailable (fetch), 73 cannot create output, 74 read or write \
                error, 77 key refused (fetch).
                """)
        text +=
            "\n\n"
            + TextWrapping.wrap(
                "Run 'entitlements <command> --help' for a command's options, 'entitlements --version' for its version."
            )
            + "\n"
        return text
    }

    static var commandNames: [String] { commands.map { $0.definition.name } }

    static var formatNames: String {
        SnapshotDecoder(adapters: builtInAdapters).formats.map(\.rawValue).joined(separator: ", ")
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String], context: CommandContext) -> ExitStatus {
        guard let name = arguments.first else {
            StandardError.print(help.trimmingTrailingNewlines())
            return .usage
        }
        if name == "--version" {
            return emitOrFail("entitlements \(version)\n", context: context)
        }
        if name == "--help" || name == "-h" || name == "help" {
            if name == "help", arguments.count > 1, !["help", "--help", "-h"].contains(arguments[1]) {
                // A typo in `help convret` must not look like an answer.
                guard let command = commands.first(where: { $0.definition.name == arguments[1] }) else {
                    return fail(
                        .usage(
                            "unknown command \(ArgumentQuoting.plain(arguments[1]))"
                                + Spelling.hint(for: arguments[1], among: commandNames),
                            command: ""), context: context)
                }
                return emitOrFail(command.definition.help, context: context)
            }
            return emitOrFail(help, context: context)
        }
        guard let command = commands.first(where: { $0.definition.name == name }) else {
            let message =
                name.hasPrefix("-")
                ? "unknown option \(ArgumentQuoting.plain(name))"
                    + Spelling.hint(for: name, among: ["--help", "--version"])
                : "unknown command \(ArgumentQuoting.plain(name))" + Spelling.hint(for: name, among: commandNames)
            return fail(.usage(message, command: ""), context: context)
        }
        do {
            let rest = Array(arguments.dropFirst())
            let parsed = try command.parse(rest)
            if parsed.wantsHelp { return emitOrFail(command.help(for: parsed), context: context) }
            guard StoreOptions.areGiven(in: parsed) else { return try command.run(parsed, context: context) }
            let store = try StoreOptions(parsed, command: name)
            return try command.run(parsed, context: store.configure(context))
        } catch {
            return fail(error, context: context)
        }
    }

    private static func emitOrFail(_ text: String, context: CommandContext) -> ExitStatus {
        do {
            try context.emit(text)
            return .success
        } catch {
            return fail(error, context: context)
        }
    }

    private static func fail(_ failure: CommandFailure, context: CommandContext) -> ExitStatus {
        StandardError.print("error: " + failure.message)
        if let command = failure.usageOf {
            StandardError.print(
                command.isEmpty
                    ? "Run 'entitlements --help' for usage." : "Run 'entitlements \(command) --help' for usage.")
        }
        return failure.status
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
