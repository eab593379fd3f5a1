/// The `ledger` actions besides `replay`, each a command of its own whose definition is named
/// `ledger ACTION`: `ledger import-plan`, `ledger backfill`, `ledger export`. `LedgerCommand` hands them their arguments
/// (the action first) and their `--help`.
enum LedgerActions {
    static var commands: [any Command.Type] {
        [LedgerImportPlanCommand.self, LedgerBackfillCommand.self, LedgerExportCommand.self]
    }

    /// Every action's name, `replay` first.
    static var names: [String] { ["replay"] + commands.map(action(of:)) }

    /// The action `ledger ACTION …` names, when it is one of ``commands``.
    static func command(for arguments: [String]) -> (any Command.Type)? {
        commands.first { action(of: $0) == arguments.first }
    }

    /// Parses `ACTION …` with the action's own definition; `nil` for `replay` and anything else.
    static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments? {
        try command(for: arguments)?.parse(arguments)
    }

    /// Runs the action the arguments name; `nil` for `replay` and anything else.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus? {
        try command(for: arguments.positionals)?.run(arguments, context: context)
    }

    /// The action's `--help`; `nil` for `replay` and anything else.
    static func help(for arguments: ParsedArguments) -> String? {
        command(for: arguments.positionals)?.definition.help
    }

    /// `import-plan` of `ledger import-plan`.
    private static func action(of command: any Command.Type) -> String {
        String(command.definition.name.split(separator: " ").last ?? "")
    }
}
