import EntitlementKit
import EntitlementKitLedger
import Foundation

/// `entitlements ledger import-plan`: a vendor's export of its customers → an import plan (JSON Lines).
enum LedgerImportPlanCommand: Command {
    static let formats = [RevenueCatExportReader.format]

    static let definition = CommandDefinition(
        name: "ledger import-plan",
        synopsis: "--from revenuecat-export [--environment production|sandbox|both] FILE...",
        summary: "Read a vendor's export of its customers into an import plan, one customer per line.",
        discussion: """
            FILE is RevenueCat's scheduled data export of transactions: CSV with a header row (RFC 4180 \
            quoting; columns other than rc_original_app_user_id, rc_last_seen_app_user_id_alias, store, \
            product_identifier, store_transaction_id, original_store_transaction_id and is_sandbox are \
            ignored). Rows are grouped by rc_original_app_user_id (the customer's first id, its name; then the \
            last-seen aliases), one purchase per original_store_transaction_id: app_store and mac_app_store an \
            App Store original transaction id, play_store a Play order id with its ..N renewal suffix removed, \
            stripe a sub_ subscription or cs_ Checkout Session; other stores are counted and skipped, and so \
            are sandbox rows unless --environment says sandbox or both. The plan goes to standard output, one \
            line per customer in the order customers first appear: {"appUserIds": [...], "purchases": \
            [{"store", "originalTransactionId" | "orderId" | "subscription" | "checkoutSession", \
            "productId"?}]}; the counts (customers, purchases per store, rows skipped by reason) to standard \
            error. A malformed row is reported with its file and line and skipped.
            """,
        positionals: [
            .init(name: "import-plan", help: "The action."),
            .init(name: "FILE...", help: "The export's CSV files, read in order; - reads standard input."),
        ],
        options: [
            .init(name: "--from", valueName: "FORMAT", help: "The export's format: revenuecat-export."),
            .init(
                name: "--environment", valueName: "ENV",
                help: "production (default), sandbox or both: the rows planned."),
        ],
        positionalCount: (2, nil),
        exitStatuses: "  0 every row read; 65 a malformed row (reported and skipped, the rest planned); 64 usage, "
            + "or an export without a column the format uses; 66 unreadable file; 74 read or write error"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let command = definition.name
        guard let format = arguments.value("--from") else {
            throw .usage("missing --from (\(formats.joined(separator: ", ")))", command: command)
        }
        guard formats.contains(format) else {
            throw .usage(
                "--from: \(ArgumentQuoting.json(format)) is not an export format (\(formats.joined(separator: ", ")))"
                    + Spelling.hint(for: format, among: formats), command: command)
        }
        let environments = try LedgerEnvironmentOption.environments(arguments, command: command)
        let reader = RevenueCatExportReader(environments: environments)
        let inputs = arguments.positionals.dropFirst().map(InputFile.init(argument:))
        if inputs.filter(\.isStandardInput).count > 1 {
            throw .usage("standard input (-) can be read once", command: command)
        }
        var builder = ImportPlanBuilder()
        for input in inputs {
            let handle = try input.open()
            do throws(ImportPlanningError) {
                try ImportPlanning.read(ImportByteSource(handle: handle), with: reader, into: &builder) { malformed in
                    StandardError.print("error: \(input.displayName): \(malformed)")
                }
            } catch {
                if error.isUsage { throw .usage("\(input.displayName): \(error)", command: command) }
                if case .unreadable = error {
                    throw CommandFailure(status: .ioError, message: "\(input.displayName): \(error)")
                }
                throw CommandFailure(status: .dataError, message: "\(input.displayName): \(error)")
            }
        }
        var batch = ""
        for customer in builder.plan {
            batch += customer.jsonLine + "\n"
            if batch.utf8.count >= 1 << 16 {
                try context.emit(batch)
                batch = ""
            }
        }
        try context.emit(batch)
        for line in summary(builder.statistics, customers: builder.plan.count) { StandardError.print(line) }
        return builder.statistics.malformedRows > 0 ? .dataError : .success
    }

    /// The counts: customers and purchases per store, then rows skipped by reason.
    static func summary(_ statistics: ImportPlanStatistics, customers: Int) -> [String] {
        let purchases = statistics.purchases.values.reduce(0, +)
        let perStore = ["appStore", "googlePlay", "stripe"].map { "\($0) \(statistics.purchases[$0] ?? 0)" }
        var lines = [
            "import-plan: \(customers) customer\(customers == 1 ? "" : "s"), \(purchases) purchase\(purchases == 1 ? "" : "s") "
                + "(\(perStore.joined(separator: ", "))) from \(statistics.rows) row\(statistics.rows == 1 ? "" : "s")"
        ]
        var skipped = statistics.skipped
        if statistics.malformedRows > 0 { skipped["malformed"] = statistics.malformedRows }
        if !skipped.isEmpty {
            let total = skipped.values.reduce(0, +)
            let reasons = skipped.keys.sorted().map { "\($0) \(skipped[$0] ?? 0)" }
            lines.append(
                "import-plan: skipped \(total) row\(total == 1 ? "" : "s"): \(reasons.joined(separator: ", "))")
        }
        if statistics.purchasesUnderSeveralCustomers > 0 {
            lines.append(
                "import-plan: \(statistics.purchasesUnderSeveralCustomers) purchase(s) listed under more than one "
                    + "customer (planned for each; the first assigned owns it)")
        }
        return lines
    }
}

/// `--environment production|sandbox|both` of the ledger's commands.
enum LedgerEnvironmentOption {
    static func environments(_ arguments: ParsedArguments, command: String) throws(CommandFailure)
        -> Set<Environment>
    {
        switch arguments.value("--environment") {
        case nil, "production": return [.production]
        case "sandbox": return [.sandbox]
        case "both": return [.production, .sandbox]
        case let text?:
            throw .usage(
                "--environment: \(ArgumentQuoting.json(text)) is not production, sandbox or both"
                    + Spelling.hint(for: text, among: ["production", "sandbox", "both"]), command: command)
        }
    }
}
