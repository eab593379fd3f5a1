import EntitlementKit

/// `entitlements diff`: one customer on two backends.
enum DiffCommand: Command {
    static let definition = CommandDefinition(
        name: "diff",
        synopsis:
            "[--from PROVIDER] [--at INSTANT] [--json] [--expiry-tolerance SECONDS] [--ignore-field FIELD]... A B",
        summary: "Compare two documents about one customer (any formats): access first, then fields.",
        discussion: """
            Both documents are evaluated at the same instant; --from names the format of both (an \
            envelope's provider must agree with it). Access differences are entitlement ids \
            active in one document and not in the other (an id a document lacks is inactive there). \
            Field differences compare, for every entitlement both list: renewState, expirationDate \
            (within --expiry-tolerance), store, productId, productPlanId, periodType, isSandbox, \
            grantType and ownershipType; a value one side does not state (unknown, or null except for \
            expirationDate) is not compared. An entitlement only one side lists, inactive there, is the \
            field difference "present". Every access difference gives both sides' reasons, as \
            'entitlements check' words them (WHY), "not listed" for a side without the entitlement. \
            --json prints {"accessDifferences": [{"entitlementId", "activeInA", "activeInB", \
            "reasonInA", "reasonInB"}], "fieldDifferences": [{"entitlementId", "field", "a", "b"}]}, \
            a reason as {"code", "date"?, "raw"?} (codes activeUntil, inGracePeriod, lifetime, expired, \
            and the denial codes), null for a side without the entitlement.
            """,
        positionals: [
            .init(name: "A", help: "The first document; - reads standard input."),
            .init(name: "B", help: "The second document; - reads standard input."),
        ],
        options: [
            CommonOptions.from, CommonOptions.at, CommonOptions.json, CommonOptions.expiryTolerance,
            CommonOptions.ignoreField,
        ] + StoreOptions.definitions,
        positionalCount: (2, 2),
        exitStatuses:
            "  0 same access (fields may differ); 1 access differs; 64 usage; 65 bad document; 66 cannot open A or B"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let format = try CommonOptions.format(arguments, command: definition.name, context: context)
        let instant = try CommonOptions.instant(arguments, command: definition.name, context: context)
        let options = try CommonOptions.diffOptions(arguments, command: definition.name)
        let (pathA, pathB) = (arguments.positionals[0], arguments.positionals[1])
        if pathA == "-", pathB == "-" {
            throw .usage("A and B cannot both be standard input", command: definition.name)
        }
        let a = try context.snapshot(of: InputFile(argument: pathA), format: format, at: instant)
        let b = try context.snapshot(of: InputFile(argument: pathB), format: format, at: instant)
        let diff = SnapshotDiff(a, b, options: options)
        try context.emit(
            arguments.has("--json")
                ? diff.jsonValue.prettyText
                : DiffText.render(diff, evaluatedAt: CommonOptions.evaluatedAtLine(instant, arguments)))
        return diff.hasAccessDifferences ? .negative : .success
    }
}

/// Human-readable difference lines, shared by `diff` and `parity`: the library's own descriptions, so an
/// app logging a ``SnapshotDiff`` prints what the tool prints.
enum DiffText {
    /// The evaluation instant's line, then the diff's report (always both counts, with or without
    /// differences, so a script or a reader finds the same shape every time).
    static func render(_ diff: SnapshotDiff, evaluatedAt: String) -> String {
        evaluatedAt + "\n" + diff.description + "\n"
    }
}
