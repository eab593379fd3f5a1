import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation

/// `entitlements fetch`: one customer's snapshot from a live backend, through the live provider and
/// nothing else; with `--shadow`, from two backends through ``MigratingProvider``, compared.
enum FetchCommand: Command {
    /// The live backends, in the order messages name them, and the variable each one's key comes from.
    static let liveBackends: [(provider: ProviderID, keyVariable: String)] = [
        (.revenueCat, "REVENUECAT_API_KEY"), (.qonversion, "QONVERSION_PROJECT_KEY"),
        (.adapty, "ADAPTY_PUBLIC_SDK_KEY"),
    ]

    static let definition = CommandDefinition(
        name: "fetch",
        synopsis:
            "--provider PROVIDER --app-user-id ID [--base-url URL] [--at INSTANT] [--shadow PROVIDER [--serve either] [--shadow-base-url URL] [--expiry-tolerance SECONDS] [--ignore-field FIELD]...]",
        summary:
            "Ask a live backend for one customer and print the unified snapshot; with --shadow, ask two and compare.",
        discussion: """
            The public key comes from REVENUECAT_API_KEY (RevenueCat), QONVERSION_PROJECT_KEY \
            (Qonversion) or ADAPTY_PUBLIC_SDK_KEY (Adapty's public SDK key); a secret key (sk_..., \
            secret_...) is refused. Adapty and Qonversion learn the profile behind a customer's id as \
            their SDKs do (Adapty's identify POST, Qonversion's v2/identities), which creates it on the \
            backend when the customer is new. The request goes to the vendor's API, or to \
            --base-url (a proxy): https only, plain http only on loopback. Connection errors, timeouts, 5xx \
            and 429 are retried three times in all with backoff (honouring Retry-After up to 30 s); each \
            attempt may take 15 s. The key is never printed. \
            With --shadow, both backends are asked at once, as MigratingProvider does in an app: the \
            snapshot printed is the one the app would get (the --provider backend's, or with --serve either \
            the merge that grants what either grants), and each difference is one line on standard error \
            (access: ..., then field: ...). The shadow is awaited at most 2 s after the served answer; its \
            failure or lateness is one line (shadow: qonversion: ...), never the command's failure. An \
            anonymous customer is not compared.
            """,
        positionals: [],
        options: [
            .init(name: "--provider", valueName: "PROVIDER", help: "The backend: revenuecat, qonversion or adapty."),
            .init(name: "--app-user-id", valueName: "ID", help: "The customer's app user id."),
            .init(
                name: "--base-url", valueName: "URL",
                help: "Send requests here instead of the vendor's API (a proxy). Default: the vendor's API."),
            CommonOptions.at,
            .init(
                name: "--shadow", valueName: "PROVIDER",
                help: "Also ask this backend and compare its answer with the served one (shadow mode)."),
            .init(
                name: "--serve", valueName: "POLICY",
                help:
                    "With --shadow: 'serving' prints the --provider backend's answer (the default); 'either' grants what either backend grants and answers when one of them fails.",
                expectedValue: .init(description: "serving or either") { ["serving", "either"].contains($0) }),
            .init(
                name: "--shadow-base-url", valueName: "URL",
                help: "With --shadow: send the shadow's requests here (a proxy). Default: the vendor's API."),
            CommonOptions.expiryTolerance,
            CommonOptions.ignoreField,
        ],
        positionalCount: (0, 0),
        exitStatuses:
            "  0 printed (with --shadow: and access agrees, or the shadow could not be compared); 1 with --shadow, access differs; 64 usage (also a missing or secret key, an insecure --base-url, an app user id the backends refuse); 65 the backend's body is not a valid document; 69 backend unavailable or unreachable after retries; 77 the backend refused the key (401/403)"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let command = definition.name
        guard let providerName = arguments.value("--provider") else {
            throw .usage("missing --provider (\(liveBackendNames.joined(separator: " or ")))", command: command)
        }
        guard let appUserId = arguments.value("--app-user-id") else {
            throw .usage("missing --app-user-id", command: command)
        }
        let instant = try CommonOptions.instant(arguments, command: command, context: context)
        let served = try liveProvider(
            named: providerName, option: "--provider", baseURLOption: "--base-url", arguments: arguments)
        guard let shadowName = arguments.value("--shadow") else {
            for option in ["--serve", "--shadow-base-url", "--expiry-tolerance", "--ignore-field"]
            where !arguments.allValues(option).isEmpty {
                throw .usage("\(option) compares with a shadow backend: add --shadow PROVIDER", command: command)
            }
            let snapshot = try LiveFetch.snapshot { () async throws(EntitlementClientError) -> EntitlementSnapshot in
                try await served.snapshot(for: appUserId)
            }
            try context.emit(snapshot.evaluated(at: instant).canonicalJSON(compact: false))
            return .success
        }
        let shadow = try liveProvider(
            named: shadowName, option: "--shadow", baseURLOption: "--shadow-base-url", arguments: arguments)
        guard shadow.provider != served.provider else {
            throw .usage(
                "--shadow: \(ArgumentQuoting.json(shadowName)) is the served backend itself; name the other one",
                command: command)
        }
        let serve = arguments.value("--serve") ?? "serving"
        guard ["serving", "either"].contains(serve) else {
            throw .usage(
                "--serve: \(ArgumentQuoting.json(serve)) is not a policy (serving, either)"
                    + Spelling.hint(for: serve, among: ["serving", "either"]),
                command: command)
        }
        let fetch = ShadowFetch(
            served: served, shadow: shadow,
            policy: serve == "either" ? .eitherGrants : .serving,
            comparison: try CommonOptions.diffOptions(arguments, command: command),
            instant: arguments.value("--at") == nil ? nil : instant)
        let outcome = AsyncWait.value { await fetch.run(appUserId) }
        for line in outcome.lines { StandardError.print(line) }
        let snapshot = try outcome.snapshot.get()
        try context.emit(snapshot.evaluated(at: instant).canonicalJSON(compact: false))
        return outcome.accessDiffers ? .negative : .success
    }

    private static var liveBackendNames: [String] { liveBackends.map(\.provider.rawValue) }

    /// The live provider `name` names, with its key from its variable and its base URL from `baseURLOption`.
    private static func liveProvider(
        named name: String, option: String, baseURLOption: String, arguments: ParsedArguments
    ) throws(CommandFailure) -> any EntitlementProvider {
        let command = definition.name
        let provider = ProviderID(named: name)
        guard let variable = liveBackends.first(where: { $0.provider == provider })?.keyVariable else {
            throw .usage(
                "\(option): \(ArgumentQuoting.json(name)) is not a live backend (\(liveBackendNames.joined(separator: ", ")))"
                    + Spelling.hint(for: name, among: liveBackendNames),
                command: command)
        }
        let baseURL = try baseURL(arguments.value(baseURLOption), option: baseURLOption)
        guard let key = ProcessInfo.processInfo.environment[variable], !key.isEmpty else {
            throw .usage("\(variable) is not set; export the backend's public key in it", command: command)
        }
        do {
            return try makeProvider(provider, key: key, baseURL: baseURL)
        } catch {
            throw .usage(error.message, command: command)
        }
    }

    /// `--base-url`'s URL; one without a scheme (`127.0.0.1:8771`) gets a hint to add one.
    private static func baseURL(_ text: String?, option: String) throws(CommandFailure) -> URL? {
        guard let text else { return nil }
        let quoted = ArgumentQuoting.json(text)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil else {
            let withoutScheme = !text.contains("://")
            // The suggestion quotes the argument too, so it is cut as the argument itself is.
            let suggestion = ArgumentQuoting.plain("http://" + text)
            let hint = withoutScheme ? "; add a scheme, such as \(suggestion) or 'https://…'" : ""
            throw .usage("\(option): \(quoted) is not a URL\(hint)", command: definition.name)
        }
        guard scheme == "http" || scheme == "https" else {
            throw .usage(
                "\(option): \(quoted) is not an http or https URL; add a scheme, such as 'https://…'",
                command: definition.name)
        }
        return url
    }

    private static func makeProvider(_ provider: ProviderID, key: String, baseURL: URL?)
        throws(EntitlementClientError) -> any EntitlementProvider
    {
        if provider == .qonversion {
            return QonversionProvider(configuration: try .init(projectKey: key, baseURL: baseURL))
        }
        if provider == .adapty {
            return AdaptyProvider(configuration: try .init(publicSDKKey: key, baseURL: baseURL))
        }
        return RevenueCatProvider(configuration: try .init(apiKey: key, baseURL: baseURL))
    }
}

/// Live provider calls from the synchronous command, their errors mapped to exit statuses.
enum LiveFetch {
    /// One provider call's snapshot, its error mapped to an exit status.
    static func snapshot(
        _ work: @escaping @Sendable () async throws(EntitlementClientError) -> EntitlementSnapshot
    ) throws(CommandFailure) -> EntitlementSnapshot {
        let result = AsyncWait.value { () async -> Result<EntitlementSnapshot, EntitlementClientError> in
            do throws(EntitlementClientError) {
                return .success(try await work())
            } catch {
                return .failure(error)
            }
        }
        return try result.mapError(failure).get()
    }

    /// A provider's error as the command's failure: its exit status and its description.
    static func failure(_ error: EntitlementClientError) -> CommandFailure {
        CommandFailure(status: status(for: error.code), message: error.description)
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
