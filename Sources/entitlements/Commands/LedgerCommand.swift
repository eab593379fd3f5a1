import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitMigration
import EntitlementKitStripe
import Foundation

/// `entitlements ledger replay`: rebuilds a ledger from a JSON Lines log of notifications, documents,
/// logIns and links, then prints every customer's unified snapshot.
enum LedgerCommand: Command {
    static let definition = CommandDefinition(
        name: "ledger",
        synopsis:
            "replay [--catalog FILE] [--root-certificate FILE] [--bundle-id ID] [--package-name NAME] "
            + "[--webhook-secret-file FILE]... [--app-user-id-key KEY] [--restore-behavior B] "
            + "[--environment production|sandbox|both] "
            + "[--pubsub-audience AUD --pubsub-service-account EMAIL --google-keys JWKS-FILE] "
            + "[--state DIR] [--outcomes FILE] [--at T] LOG",
        summary:
            "Replay a log of store notifications and documents into a ledger and print every customer's snapshot; "
            + "also import-plan, backfill and export (see 'ledger import-plan --help', 'ledger backfill --help', "
            + "'ledger export --help').",
        discussion: """
            LOG is JSON Lines, one input per line: {"notification": {"source", "body", "headers"}, "receivedAt"}, \
            {"document": {"source", "body", "purchaseToken"?, "appUserId"?}, "receivedAt"}, {"logIn": {"from", \
            "to"}} or {"link": {"accountToken" | "obfuscatedAccountId" | "stripeCustomer": ID, "appUserId"}}; \
            sources appStore (needs --bundle-id), googlePlay (needs --package-name), stripe (webhooks need \
            --webhook-secret-file, repeatable: any of the secrets verifies). Prints one unified snapshot per customer at --at (JSON Lines, each customer \
            by its name with its other ids in "aliases", sorted by name, as 'ledger export' prints them). A line that is not one of these forms, or that the \
            ledger refuses, is reported on standard error and the rest is still applied. The log is read as it \
            comes, of any size, each outcome written before the next line is read; a line over 16 MiB is \
            refused unread. With --state the ledger is kept in that directory: replaying a log in two halves \
            gives what one replay gives; a customer whose stored row is damaged gets no snapshot line but an \
            error naming it and the row, and every other customer is printed.
            """,
        positionals: [
            .init(name: "replay", help: "The action."),
            .init(name: "LOG", help: "The JSON Lines log, or - for standard input."),
        ],
        options: [
            StoreOptions.catalogOption, StoreOptions.rootCertificateOption,
            .init(
                name: "--bundle-id", valueName: "ID",
                help: "App Store: the app's bundle id; notifications and transactions must carry it."),
            .init(
                name: "--package-name", valueName: "NAME",
                help: "Google Play: the app's package name; notifications must carry it."),
            .init(
                name: "--webhook-secret-file", valueName: "FILE",
                help: "Stripe: a file holding a webhook endpoint secret (repeatable).", repeatable: true),
            .init(
                name: "--app-user-id-key", valueName: "KEY",
                help: "Stripe: the metadata key holding the app user id. Default: app_user_id."),
            .init(
                name: "--restore-behavior", valueName: "B",
                help:
                    "transferToNewAppUserId (default), transferIfNoActiveSubscriptions, keepWithOriginalAppUserId or shareBetweenAppUserIds."
            ),
            .init(
                name: "--environment", valueName: "ENV",
                help: "production (default), sandbox or both: the inputs accepted."),
            .init(
                name: "--pubsub-audience", valueName: "AUD",
                help: "Google Play: the audience of the push subscription's tokens (with the next two options)."),
            .init(
                name: "--pubsub-service-account", valueName: "EMAIL",
                help: "Google Play: the push subscription's service account; pushes must carry its token."),
            .init(
                name: "--google-keys", valueName: "JWKS-FILE",
                help: "Google Play: Google's public keys as a JWKS document. Without these three a void asks for "
                    + "a refresh."),
            .init(name: "--state", valueName: "DIR", help: "Keep the ledger in this directory (created when missing)."),
            .init(
                name: "--outcomes", valueName: "FILE",
                help:
                    #"Write one line per input: {"line", "outcome", "customers"?, "purchaseToken"?, "owner"?, "error"?}."#
            ),
            CommonOptions.at,
        ],
        positionalCount: (2, 2),
        exitStatuses: "  0 every line applied; 65 a line was refused or malformed (the rest applied), or a customer's "
            + "stored row is damaged (the others printed); 64 usage; 66 unreadable log; 73 cannot create the "
            + "outcomes file (64 when it names the LOG itself); 74 a read or write failed midway"
    )

    // `ledger import-plan` and `ledger export` parse, run and explain themselves (LedgerActions).
    static func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments {
        if let parsed = try LedgerActions.parse(arguments) { return parsed }
        return try ParsedArguments(arguments, for: definition)
    }

    static func help(for arguments: ParsedArguments) -> String {
        LedgerActions.help(for: arguments) ?? definition.help
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        if let status = try LedgerActions.run(arguments, context: context) { return status }
        let command = definition.name
        guard arguments.positionals.first == "replay" else {
            let action = arguments.positionals.first ?? ""
            let actions = LedgerActions.names
            let message =
                "unknown action \(ArgumentQuoting.json(action)); the actions are \(actions.joined(separator: ", "))"
            throw .usage(message + Spelling.hint(for: action, among: actions), command: command)
        }
        let configuration = try Self.configuration(arguments, command: command)
        let sources = try LedgerReplaySources.sources(arguments, command: command)
        let instant = try CommonOptions.instant(arguments, command: command, context: context)
        let state = try arguments.value("--state").map { path throws(CommandFailure) in
            try stateStore(path, observer: context.ledgerCommitObserver)
        }
        let store: any LedgerStore = state ?? InMemoryLedgerStore()
        let logFile = InputFile(argument: arguments.positionals[1])
        var outcomes: OutputStream?
        if let path = arguments.value("--outcomes") {
            // Checked before the outcomes file is created: creating it would empty the log.
            guard !logFile.isSameFile(as: path) else {
                throw .usage("--outcomes: \(ArgumentQuoting.json(path)) is the LOG itself", command: command)
            }
            do {
                outcomes = try OutputStream.creating(path)
            } catch {
                throw CommandFailure(status: .cannotCreate, message: "--outcomes: " + error.message)
            }
        }
        let ledger = EntitlementLedger(sources: sources, store: store, configuration: configuration)
        return try Self.syncing(state) { () throws(CommandFailure) in
            let refused = try Self.applyLines(of: logFile, to: ledger, outcomes: outcomes)
            let unreadable = try Self.printSnapshots(of: ledger, at: instant, context: context)
            return refused || unreadable ? .dataError : .success
        }
    }

    /// Applies the log a line at a time as it is read, each line's outcome written (and flushed) before the
    /// next is read: neither the log nor its outcomes are held whole. Whether any line was refused.
    private static func applyLines(of logFile: InputFile, to ledger: EntitlementLedger, outcomes: OutputStream?)
        throws(CommandFailure) -> Bool
    {
        let handle = try logFile.open()
        // read(2) rather than `FileHandle.read(upToCount:)`, which waits for the whole block: a line arriving
        // on a pipe is applied as soon as it is complete.
        var reader = JSONLinesReader(maximumLineLength: LedgerReplay.maximumLineLength) { () throws -> Data? in
            var block = Data(count: 1 << 18)
            while true {
                let count = block.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count >= 0 { return block.prefix(count) }
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
        }
        var refused = false
        while true {
            let next: JSONLine?
            do {
                next = try reader.next()
            } catch {
                throw CommandFailure(
                    status: .ioError, message: "\(logFile.displayName): cannot read: \(error.localizedDescription)")
            }
            guard let next else { return refused }
            let result = AsyncWait.value { await LedgerReplay.apply(next, to: ledger) }
            if let error = result.error {
                refused = true
                StandardError.print("error: line \(result.number): \(error)\(LedgerReplaySources.hint(for: error))")
            }
            do {
                try outcomes?.write(result.json.compactText + "\n")
                try outcomes?.flush()
            } catch {
                throw CommandFailure(status: .ioError, message: "--outcomes: cannot write: \(error)")
            }
        }
    }

    /// Prints every customer's snapshot, sorted by name, a few at a time; a customer the store cannot read
    /// (a damaged row) gets no line but an error naming it and the row, and every other customer is
    /// printed. Whether any customer could not be read.
    private static func printSnapshots(of ledger: EntitlementLedger, at instant: Date, context: CommandContext)
        throws(CommandFailure) -> Bool
    {
        let roll = AsyncWait.value { () async -> Result<LedgerCustomerRoll, LedgerRefusal> in
            do throws(LedgerRefusal) {
                return .success(try await ledger.namedCustomers())
            } catch {
                return .failure(error)
            }
        }
        let customers: [LedgerCustomerName]
        var unreadable = false
        switch roll {
        case .success(let roll):
            customers = roll.customers
            for refusal in roll.unreadable {
                unreadable = true
                StandardError.print("error: a customer cannot be read: \(Self.describe(refusal))")
            }
        case .failure(let error):
            throw CommandFailure(status: .dataError, message: Self.describe(error))
        }
        for start in stride(from: 0, to: customers.count, by: 64) {
            let slice = customers[start..<min(start + 64, customers.count)]
            let answers = AsyncWait.value { await LedgerReplay.snapshots(of: ledger, at: instant, from: slice) }
            var text = ""
            for answer in answers {
                switch answer {
                case .snapshot(let snapshot):
                    text += snapshot.canonicalJSON(compact: true) + "\n"
                case .unreadable(let customer, let refusal):
                    unreadable = true
                    let name = customer.map { "customer \(ArgumentQuoting.json($0))" } ?? "a customer"
                    StandardError.print("error: \(name) cannot be read: \(Self.describe(refusal))")
                }
            }
            try context.emit(text)
        }
        return unreadable
    }

    /// The refusal, with the damaged row it names when its message does not already.
    private static func describe(_ refusal: LedgerRefusal) -> String {
        guard let row = refusal.row, !refusal.message.contains(row) else { return refusal.description }
        return "\(refusal.description) (row \(row))"
    }

    /// The ledger's configuration from `--restore-behavior` and `--environment` (the replay's and backfill's).
    static func configuration(_ arguments: ParsedArguments, command: String) throws(CommandFailure)
        -> LedgerConfiguration
    {
        var configuration = LedgerConfiguration()
        if let text = arguments.value("--restore-behavior") {
            guard let behavior = RestoreBehavior(rawValue: text) else {
                let known = RestoreBehavior.allCases.map(\.rawValue)
                throw .usage(
                    "--restore-behavior: \(ArgumentQuoting.json(text)) is not \(known.joined(separator: ", "))"
                        + Spelling.hint(for: text, among: known), command: command)
            }
            configuration.restoreBehavior = behavior
        }
        configuration.environments = try LedgerEnvironmentOption.environments(arguments, command: command)
        return configuration
    }

    /// The ledger's state kept in `path` (`--state DIR`, here and in `ledger backfill`), created when missing;
    /// `observer` is told its commits' stages (a test's, else `nil`).
    /// Synced in batches: both commands can be run again and apply nothing twice, so a power cut's loss
    /// (the commits since the last sync) is restored by a rerun; ``syncing(_:_:)`` syncs the rest.
    static func stateStore(
        _ path: String, observer: (@Sendable (LedgerCommitStage) -> Void)?
    ) throws(CommandFailure) -> DirectoryLedgerStore {
        do {
            // The store makes its own folder only; a state kept under a new path needs its parents too.
            let directory = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(
                at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try DirectoryLedgerStore(
                directory: directory, syncing: .batched, commitStageObserver: observer, writeStageObserver: nil)
        } catch let error as LedgerRefusal {
            throw CommandFailure(status: .cannotCreate, message: "--state: \(path): \(error.message)")
        } catch {
            throw CommandFailure(status: .cannotCreate, message: "--state: \(path): \(error.localizedDescription)")
        }
    }

    /// Runs `command`, then syncs `state` (when there is one) however it ended: a failed sync fails a
    /// command that succeeded (74) and is reported beside a failure.
    static func syncing(
        _ state: DirectoryLedgerStore?, _ command: () throws(CommandFailure) -> ExitStatus
    ) throws(CommandFailure) -> ExitStatus {
        let outcome = Result { () throws(CommandFailure) in try command() }
        if let state {
            let synced = AsyncWait.value { () async -> LedgerRefusal? in
                do throws(LedgerRefusal) {
                    try await state.sync()
                    return nil
                } catch {
                    return error
                }
            }
            if let synced {
                let failure = CommandFailure(status: .ioError, message: "--state: \(synced.message)")
                guard case .failure = outcome else { throw failure }
                StandardError.print("error: \(failure.message)")
            }
        }
        return try outcome.get()
    }
}

/// The ledger's sources as the replay's options configure them.
enum LedgerReplaySources {
    /// For a line of a source no option configured, the option that configures it: the ledger's refusal
    /// names the source, the user needs the flag.
    static func hint(for error: LedgerRefusal) -> String {
        guard error.kind == .unknownSource else { return "" }
        if error.message.contains(#""googlePlay""#) {
            return " (give --package-name NAME: the app's Play package name)"
        }
        if error.message.contains(#""appStore""#) { return " (give --bundle-id ID: the app's bundle id)" }
        return ""
    }

    static func sources(_ arguments: ParsedArguments, command: String) throws(CommandFailure) -> [any LedgerSource] {
        let store = try StoreOptions(arguments, command: command)
        var sources: [any LedgerSource] = []
        if let bundleId = arguments.value("--bundle-id") {
            sources.append(
                AppStoreLedgerSource(
                    catalog: store.catalog, bundleId: bundleId, rootCertificates: store.rootCertificates))
        }
        let pushAuthentication = try PubSubPushOptions.authentication(arguments, command: command)
        if let packageName = arguments.value("--package-name") {
            sources.append(
                GooglePlayLedgerSource(
                    catalog: store.catalog, packageName: packageName, pushAuthentication: pushAuthentication))
        }
        // Stripe reads documents without a secret; its webhooks need one (without, each is refused).
        sources.append(
            StripeLedgerSource(
                catalog: store.catalog, webhookSecrets: try WebhookSecretFiles.secrets(arguments, command: command),
                appUserIdMetadataKey: store.appUserIdMetadataKey))
        return sources
    }
}
