import EntitlementKit
import EntitlementKitMigration

/// `entitlements validate-user-id`: whether an app user id is usable, and why not.
enum ValidateUserIdCommand: Command {
    static let definition = CommandDefinition(
        name: "validate-user-id",
        synopsis: "ID",
        summary: "Tell whether an app user id is usable on the supported backends, and why not.",
        discussion: """
            Not usable: empty or whitespace only; containing "/"; longer than 100 characters; a \
            placeholder on RevenueCat's block-list (no_user, null, none, nil, (null), NaN, \\x00, '', \
            unidentified, undefined, unknown, anonymous, guest, -1, 0, [], {}, [object Object]), also when \
            only the case differs; an SDK-generated anonymous id ($RCAnonymousID: or QON_ followed by 32 \
            hex digits), which cannot identify your customer. Leading or trailing whitespace is a warning. \
            An ID starting with "-" (such as -1) is taken as the ID; use -- before an ID starting with "--".
            """,
        positionals: [.init(name: "ID", help: "The app user id to check.")],
        options: [],
        positionalCount: (1, 1),
        exitStatuses: "  0 usable; 1 not usable; 64 usage"
    )

    /// Like the common parser, but a single-dash argument (`-1`, a block-listed id) is the ID itself.
    static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments {
        var rewritten: [String] = []
        var positionalOnly = false
        for argument in arguments {
            if !positionalOnly, argument.hasPrefix("-"), !argument.hasPrefix("--"), argument != "-h" {
                rewritten.append("--")
                positionalOnly = true
            }
            if argument == "--" { positionalOnly = true }
            rewritten.append(argument)
        }
        return try ParsedArguments(rewritten, for: definition)
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let check = AppUserIdCheck(arguments.positionals[0])
        let quoted = JSONValue.string(check.appUserId).compactText
        var text =
            "\(quoted): "
            + (check.isUsable ? (check.findings.isEmpty ? "usable" : "usable, with warnings") : "not usable") + "\n"
        for finding in check.findings { text += "  - \(finding)\n" }
        try context.emit(text)
        return check.isUsable ? .success : .negative
    }
}
