import EntitlementKit
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation

/// `entitlements fetch`: one customer's snapshot from a live backend, through the live provider and
/// nothing else.
enum FetchCommand: Command {
    /// Where each backend's key comes from.
    static let keyVariables: [ProviderID: String] = [
        .revenueCat: "REVENUECAT_API_KEY", .qonversion: "QONVERSION_PROJECT_KEY",
    ]

    static let definition = CommandDefinition(
        name: "fetch",
        synopsis: "--provider PROVIDER --app-user-id ID [--base-url URL] [--at INSTANT]",
        summary: "Ask a live backend for one customer and print the unified snapshot.",
        discussion: """
            The public key comes from REVENUECAT_API_KEY (RevenueCat) or QONVERSION_PROJECT_KEY \
            (Qonversion); a secret key (sk_...) is refused. The request goes to the vendor's API, or to \
            --base-url (a proxy): https only, plain http only on loopback. Connection errors, timeouts, 5xx \
            and 429 are retried three times in all with backoff (honouring Retry-After up to 30 s); each \
            attempt may take 15 s. The key is never printed.
            """,
        positionals: [],
        options: [
            .init(name: "--provider", valueName: "PROVIDER", help: "The backend: revenuecat or qonversion."),
            .init(name: "--app-user-id", valueName: "ID", help: "The customer's app user id."),
            .init(
                name: "--base-url", valueName: "URL",
                help: "Send requests here instead of the vendor's API (a proxy). Default: the vendor's API."),
            CommonOptions.at,
        ],
        positionalCount: (0, 0),
        exitStatuses:
            "  0 printed; 64 usage (also a missing or secret key, an insecure --base-url, an app user id the backends refuse); 65 the backend's body is not a valid document; 69 backend unavailable or unreachable after retries; 77 the backend refused the key (401/403)"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let command = definition.name
        guard let providerName = arguments.value("--provider") else {
            throw .usage("missing --provider (revenuecat or qonversion)", command: command)
        }
        let provider = ProviderID(named: providerName)
        guard let variable = keyVariables[provider] else {
            throw .usage(
                "--provider: \(JSONValue.string(providerName).compactText) is not a live backend (revenuecat, qonversion)",
                command: command)
        }
        guard let appUserId = arguments.value("--app-user-id") else {
            throw .usage("missing --app-user-id", command: command)
        }
        let instant = try CommonOptions.instant(arguments, command: command, context: context)
        var baseURL: URL?
        if let text = arguments.value("--base-url") {
            guard let url = URL(string: text) else {
                throw .usage("--base-url: \(JSONValue.string(text).compactText) is not a URL", command: command)
            }
            baseURL = url
        }
        guard let key = ProcessInfo.processInfo.environment[variable], !key.isEmpty else {
            throw .usage("\(variable) is not set; export the backend's public key in it", command: command)
        }
        let live: any EntitlementProvider
        do {
            live = try makeProvider(provider, key: key, baseURL: baseURL)
        } catch {
            throw .usage(error.message, command: command)
        }
        let snapshot = try LiveFetch.run { () async throws(EntitlementClientError) -> EntitlementSnapshot in
            try await live.snapshot(for: appUserId)
        }
        try context.emit(snapshot.evaluated(at: instant).canonicalJSON(compact: false))
        return .success
    }

    private static func makeProvider(_ provider: ProviderID, key: String, baseURL: URL?)
        throws(EntitlementClientError) -> any EntitlementProvider
    {
        if provider == .qonversion {
            return QonversionProvider(configuration: try .init(projectKey: key, baseURL: baseURL))
        }
        return RevenueCatProvider(configuration: try .init(apiKey: key, baseURL: baseURL))
    }
}

/// Runs one provider call to completion from the synchronous command and maps its error to an exit
/// status.
private enum LiveFetch {
    private final class Box: @unchecked Sendable {
        // Written once by the task before it signals, read once after the wait.
        var result: Result<EntitlementSnapshot, EntitlementClientError>?
    }

    static func run(
        _ work: @escaping @Sendable () async throws(EntitlementClientError) -> EntitlementSnapshot
    ) throws(CommandFailure) -> EntitlementSnapshot {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(EntitlementClientError) {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        switch box.result {
        case .success(let snapshot)?:
            return snapshot
        case .failure(let error)?:
            throw CommandFailure(status: status(for: error.code), message: error.description)
        case nil:
            throw CommandFailure(status: .unavailable, message: "the request ended without an answer")
        }
    }

    static func status(for code: EntitlementClientError.Code) -> ExitStatus {
        switch code {
        case .badResponse: .dataError
        case .credentialsRefused: .noPermission
        case .invalidAppUserId: .usage
        default: .unavailable
        }
    }
}
