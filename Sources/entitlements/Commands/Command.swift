/// One subcommand of the tool.
protocol Command {
    /// Its arguments and help.
    static var definition: CommandDefinition { get }
    /// Parses its arguments (after the command name); the default follows ``definition``.
    static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments
    /// Runs it with parsed arguments; the returned status is the process's.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus
}

extension Command {
    static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments {
        try ParsedArguments(arguments, for: definition)
    }
}
