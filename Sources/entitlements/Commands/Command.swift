/// One subcommand of the tool.
protocol Command {
    /// Its arguments and help.
    static var definition: CommandDefinition { get }
    /// Runs it with parsed arguments; the returned status is the process's.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus
}
