import EntitlementKit

/// `entitlements check`: a table of a customer's entitlements, and whether some are active.
enum CheckCommand: Command {
    static let definition = CommandDefinition(
        name: "check",
        synopsis: "[--from PROVIDER] [--at INSTANT] FILE [ID...]",
        summary:
            "Print a table of the entitlements in one vendor response; with IDs, tell whether they are all active.",
        discussion: """
            The first line names the instant access was judged at ("evaluated at 2025-06-01T12:00:00Z"; \
            "(now)" when --at was not given). Columns: ID, ACTIVE (yes/no at the evaluation instant), RENEW STATE, EXPIRES (never for \
            lifetime access), STORE, PRODUCT and WHY; - marks a value the backend did not give. WHY says \
            why access is granted or not: "until <expiry>", "grace until <expiry>" (a billing grace \
            period), "lifetime", "expired <expiry>", or a denial with the source's own value in \
            parentheses: "refunded (REFUND_FULL)", "revoked (FAMILY_REVOKE)", "upgraded", \
            "store state SUBSCRIPTION_STATE_ON_HOLD", "not paid (2)", "vendor says inactive (0)", \
            "denied". Without IDs every entitlement is listed, sorted by id. With IDs only those are \
            listed, in the order given; an id the customer does not have shows "no", - elsewhere and \
            "not listed".
            """,
        positionals: [
            .init(name: "FILE", help: "The document; - reads standard input."),
            .init(name: "ID...", help: "Entitlement ids that must all be active."),
        ],
        options: [CommonOptions.from, CommonOptions.at] + StoreOptions.definitions + StripeWebhookOptions.definitions,
        positionalCount: (1, nil),
        exitStatuses:
            "  0 printed (and every ID is active); 1 some ID is not active; 64 usage; 65 bad document; 66 cannot open FILE"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let format = try CommonOptions.format(arguments, command: definition.name, context: context)
        let instant = try CommonOptions.instant(arguments, command: definition.name, context: context)
        let snapshot = try StripeWebhookOptions.snapshot(
            arguments, of: InputFile(argument: arguments.positionals[0]), format: format, at: instant,
            context: context, command: definition.name)
        var requested: [String] = []
        for id in arguments.positionals.dropFirst() where !requested.contains(id) { requested.append(id) }
        try context.emit(
            CommonOptions.evaluatedAtLine(instant, arguments) + "\n"
                + CheckTable(snapshot: snapshot, ids: requested.isEmpty ? nil : requested).text)
        return requested.allSatisfy(snapshot.isActive) ? .success : .negative
    }
}
