/// One subcommand of the tool.
protocol Command {
    /// Its arguments and help.
    static var definition: CommandDefinition { get }
    /// Parses its arguments (after the command name); the default follows ``definition``.
    static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments
    /// Runs it with parsed arguments; the returned status is the process's.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus
    /// The `--help` text for `arguments` (a command with actions explains the action named); the default is
    /// ``definition``'s.
    static func help(for arguments: ParsedArguments) -> String
}

extension Command {
    static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments {
        try ParsedArguments(arguments, for: definition)
    }

    static func help(for arguments: ParsedArguments) -> String {
        definition.help
    }
}
