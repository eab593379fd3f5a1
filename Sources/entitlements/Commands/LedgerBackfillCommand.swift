import EntitlementKit
import EntitlementKitLedger
import Foundation

/// `entitlements ledger backfill`: an import plan applied to a ledger's state, each purchase assigned to its
/// customer with the document the team's tooling fetched from its store (``ImportBackfill``).
enum LedgerBackfillCommand: Command {
    /// The replay's verification options (and `--catalog`, `--at`), parsed by the replay's own code.
    private static var verificationOptions: [CommandDefinition.Option] {
        LedgerCommand.definition.options.filter { !["--state", "--outcomes"].contains($0.name) }
    }

    static let definition = CommandDefinition(
        name: "ledger backfill",
        synopsis:
            "--plan FILE --documents DIR --state DIR [--outcomes FILE] [--catalog FILE] [--root-certificate FILE] "
            + "[--bundle-id ID] [--package-name NAME] [--webhook-secret-file FILE]... [--app-user-id-key KEY] "
            + "[--environment production|sandbox|both] [--at T]",
        summary: "Assign an import plan's purchases to their customers in a ledger, with the stores' documents.",
        discussion: """
            FILE is an import plan (ledger import-plan), JSON Lines, one customer per line. Each purchase is \
            assigned to the customer holding the line's app user ids (created with all of them when none \
            does; ids held by two customers refuse the line's purchases) with the document found at \
            DIR/appStore/<originalTransactionId>.json (a statuses or history response or a JWS array from the \
            App Store Server API), DIR/googlePlay/<purchaseToken>.json (subscriptionsv2 or products) or \
            DIR/stripe/<id>.json (the subscription or Checkout Session) — only its statements about that \
            purchase are kept — or with the purchase-id link alone when there is none: a later notification \
            for it reaches the customer though it names no account token. A Play purchase known by its order \
            id only needs its purchase token first (Google's Orders API). The documents are verified as \
            'ledger replay' verifies them (--bundle-id and --root-certificate for the App Store, \
            --package-name for Play). The plan is read one line at a time; each customer is one transaction \
            of the state, recorded done with it, so a rerun skips the customers done (a customer with a \
            refused purchase is tried again). --outcomes writes one line per purchase: {"line", "purchase", \
            "outcome", "owner"?, "error"?}, outcome assigned, linkedOnly, ownedByOther, needsPurchaseToken or \
            refused (a malformed plan line: refused without a purchase). The counts go to standard error.
            """,
        positionals: [.init(name: "backfill", help: "The action.")],
        options: [
            .init(name: "--plan", valueName: "FILE", help: "The import plan (JSON Lines), or - for standard input."),
            .init(
                name: "--documents", valueName: "DIR",
                help: "The folder of fetched documents: appStore/, googlePlay/, stripe/, one <id>.json each."),
            .init(
                name: "--state", valueName: "DIR",
                help: "The ledger's state directory (created when missing), as 'ledger replay --state'."),
            .init(
                name: "--outcomes", valueName: "FILE",
                help: #"Write one line per purchase: {"line", "purchase", "outcome", "owner"?, "error"?}."#),
        ] + verificationOptions,
        positionalCount: (1, 1),
        exitStatuses: "  0 every purchase assigned, linked or answered; 65 a purchase refused or a plan line malformed "
            + "(the rest applied); 64 usage; 66 unreadable plan or no documents folder; 73 cannot create the state "
            + "or the outcomes file; 74 read error, or the state cannot be synced"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let command = definition.name
        guard let planPath = arguments.value("--plan") else { throw .usage("missing --plan FILE", command: command) }
        guard let documentsPath = arguments.value("--documents") else {
            throw .usage("missing --documents DIR", command: command)
        }
        guard let statePath = arguments.value("--state") else { throw .usage("missing --state DIR", command: command) }
        let configuration = try LedgerCommand.configuration(arguments, command: command)
        let sources = try LedgerReplaySources.sources(arguments, command: command)
        let instant = try CommonOptions.instant(arguments, command: command, context: context)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: documentsPath, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw CommandFailure(status: .noInput, message: "--documents: \(documentsPath): no such folder")
        }
        let planFile = InputFile(argument: planPath)
        let plan = try planFile.open()
        var outcomes: FileHandle?
        if let path = arguments.value("--outcomes") {
            guard !planFile.isSameFile(as: path) else {
                throw .usage("--outcomes: \(ArgumentQuoting.json(path)) is the plan itself", command: command)
            }
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw CommandFailure(status: .cannotCreate, message: "--outcomes: \(path): cannot create the file")
            }
            outcomes = handle
        }
        defer { try? outcomes?.close() }
        let store = try LedgerCommand.stateStore(statePath, observer: context.ledgerCommitObserver)
        let backfill = ImportBackfill(
            ledger: EntitlementLedger(sources: sources, store: store, configuration: configuration),
            documents: URL(fileURLWithPath: documentsPath), receivedAt: instant)
        let written = outcomes
        return try LedgerCommand.syncing(store) { () throws(CommandFailure) in
            try Self.run(backfill, plan: plan, planFile: planFile, outcomes: written)
        }
    }

    private static func run(
        _ backfill: ImportBackfill, plan: FileHandle, planFile: InputFile, outcomes written: FileHandle?
    ) throws(CommandFailure) -> ExitStatus {
        let result = AsyncWait.value { () async -> Result<ImportBackfill.Summary, ImportReadError> in
            do throws(ImportReadError) {
                return .success(
                    try await backfill.run(plan: ImportByteSource(handle: plan)) { result in
                        if let error = result.error {
                            let purchase = result.purchase.map { "\($0.reference.member.id): " } ?? ""
                            StandardError.print("error: line \(result.line): \(purchase)\(error)")
                        }
                        written?.write(Data((result.jsonValue.compactText + "\n").utf8))
                    })
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let summary):
            StandardError.print(Self.summary(summary))
            let refused = summary.malformedLines + (summary.purchases[.refused] ?? 0)
            return refused > 0 ? .dataError : .success
        case .failure(let error):
            throw CommandFailure(status: .ioError, message: "\(planFile.displayName): \(error)")
        }
    }

    /// `backfill: 3 customers (1 done before), 4 purchases: assigned 2, linkedOnly 1, …`.
    static func summary(_ summary: ImportBackfill.Summary) -> String {
        let total = summary.purchases.values.reduce(0, +)
        let counts = ImportBackfill.Outcome.allCases.map { "\($0.rawValue) \(summary.purchases[$0] ?? 0)" }
        var line =
            "backfill: \(summary.customers) customer\(summary.customers == 1 ? "" : "s") "
            + "(\(summary.skipped) done before), \(total) purchase\(total == 1 ? "" : "s"): "
            + counts.joined(separator: ", ")
        if summary.malformedLines > 0 { line += "; \(summary.malformedLines) malformed plan line(s)" }
        return line
    }

}
