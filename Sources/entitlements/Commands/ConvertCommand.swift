import EntitlementKit
import EntitlementKitMigration

/// `entitlements convert`: one document to its unified snapshot.
enum ConvertCommand: Command {
    static let definition = CommandDefinition(
        name: "convert",
        synopsis: "[--from PROVIDER] [--at INSTANT] [--compact] FILE",
        summary: "Print the unified snapshot of one vendor response.",
        discussion: """
            FILE is a RevenueCat, Qonversion or Adapty response, a unified snapshot, or one JSON Lines envelope \
            {"appUserId", "provider", "response"}. The snapshot is printed in its canonical form: sorted \
            keys, every key present, UTC dates. A document over \
            \(BoundedDocumentReader.defaultMaximumDocumentLength >> 20) MiB is refused (65) without being read whole.
            """,
        positionals: [.init(name: "FILE", help: "The document; - reads standard input.")],
        options: [
            CommonOptions.from, CommonOptions.at,
            .init(name: "--compact", valueName: nil, help: "Print one line instead of indented JSON."),
        ] + StoreOptions.definitions + StripeWebhookOptions.definitions,
        positionalCount: (1, 1),
        exitStatuses: "  0 printed; 64 usage; 65 bad document; 66 cannot open FILE"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let format = try CommonOptions.format(arguments, command: definition.name, context: context)
        let instant = try CommonOptions.instant(arguments, command: definition.name, context: context)
        let snapshot = try StripeWebhookOptions.snapshot(
            arguments, of: InputFile(argument: arguments.positionals[0]), format: format, at: instant,
            context: context, command: definition.name)
        let compact = arguments.has("--compact")
        try context.emit(snapshot.canonicalJSON(compact: compact) + (compact ? "\n" : ""))
        return .success
    }
}
