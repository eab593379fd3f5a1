import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitStripe
import Foundation

/// `entitlements ledger export`: every customer of a ledger's state, by name with its aliases, as unified
/// snapshots — the ledger's side of a parity check against the vendor.
enum LedgerExportCommand: Command {
    static let definition = CommandDefinition(
        name: "ledger export",
        synopsis: "--state DIR --at T [--catalog FILE]",
        summary: "Print every customer of a ledger's state as a unified snapshot with its name and aliases.",
        discussion: """
            DIR is a ledger's state (ledger replay --state, or a server's DirectoryLedgerStore); it is only \
            read. Prints one unified snapshot per customer at --at, JSON Lines sorted by appUserId: the \
            customer's name (its first identified app user id by bytes, else its first id) with its other ids \
            in "aliases", sorted by bytes — compare it with a vendor's export through 'entitlements parity \
            --join-aliases'. Without --catalog every product is its own entitlement. A customer whose rows are \
            damaged is named on standard error and printed no line.
            """,
        positionals: [.init(name: "export", help: "The action.")],
        options: [
            .init(name: "--state", valueName: "DIR", help: "The ledger's state directory."),
            CommonOptions.at, StoreOptions.catalogOption,
        ],
        positionalCount: (1, 1),
        exitStatuses: "  0 every customer printed; 65 a customer's rows are damaged (the others printed); 64 usage; "
            + "66 no such state; 74 read or write error"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let command = definition.name
        guard let path = arguments.value("--state") else { throw .usage("missing --state DIR", command: command) }
        guard arguments.value("--at") != nil else { throw .usage("missing --at T", command: command) }
        let instant = try CommonOptions.instant(arguments, command: command, context: context)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(status: .noInput, message: "--state: \(path): no such state")
        }
        let catalog = try StoreOptions(arguments, command: command).catalog
        let store: DirectoryLedgerStore
        do {
            store = try DirectoryLedgerStore(directory: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(status: .noInput, message: "--state: \(path): \(error.message)")
        }
        // Reading needs each source's mapping only: no notification is verified here.
        let sources: [any LedgerSource] = [
            AppStoreLedgerSource(catalog: catalog, bundleId: ""),
            GooglePlayLedgerSource(catalog: catalog, packageName: ""),
            StripeLedgerSource(catalog: catalog, webhookSecrets: []),
        ]
        let ledger = EntitlementLedger(sources: sources, store: store)
        let roll = AsyncWait.value { () async -> Result<LedgerCustomerRoll, LedgerRefusal> in
            do throws(LedgerRefusal) {
                return .success(try await ledger.namedCustomers())
            } catch {
                return .failure(error)
            }
        }
        let named: [LedgerCustomerName]
        var damaged = 0
        switch roll {
        case .success(let roll):
            named = roll.customers
            for refusal in roll.unreadable {
                damaged += 1
                StandardError.print("error: --state: \(path): a customer cannot be read: \(refusal)")
            }
        case .failure(let error):
            throw CommandFailure(status: .dataError, message: "--state: \(path): \(error)")
        }
        var batch = ""
        for customer in named {
            let snapshot = AsyncWait.value { () async -> Result<EntitlementSnapshot, LedgerRefusal> in
                do throws(LedgerRefusal) {
                    return .success(try await ledger.snapshot(of: customer, at: instant))
                } catch {
                    return .failure(error)
                }
            }
            switch snapshot {
            case .success(let snapshot):
                batch += snapshot.canonicalJSON(compact: true) + "\n"
                if batch.utf8.count >= 1 << 16 {
                    try context.emit(batch)
                    batch = ""
                }
            case .failure(let error):
                damaged += 1
                StandardError.print("error: customer \(ArgumentQuoting.json(customer.name)): \(error)")
            }
        }
        try context.emit(batch)
        return damaged > 0 ? .dataError : .success
    }
}
