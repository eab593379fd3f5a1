import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitStripe
import Foundation

/// A setting the server cannot start with: its one line names the variable (never a secret's value).
public struct ConfigurationError: Error, CustomStringConvertible {
    /// The environment variable at fault.
    public let variable: String
    /// Why, without the variable's value when that may be a secret.
    public let reason: String

    public var description: String { "own-backend-server: \(variable): \(reason)" }
}

/// Everything the server reads from its environment (the names are a contract: `own-backend-server.md`).
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var stateDirectory = URL(fileURLWithPath: "ledger-state")
    public var database: DatabaseAddress?
    public var catalog = EntitlementCatalog.identity
    public var bundleId: String?
    public var packageName: String?
    public var rootCertificates: [Data]?
    public var ledger = LedgerConfiguration()
    public var stripeWebhookSecrets: [String] = []
    public var sessions: [String: String] = [:]
    public var playAPI: URL?
    public var stripeAPI: URL?
    public var googleServiceAccount: GoogleServiceAccount?
    public var stripeSecretKey: String?
    /// How Pub/Sub pushes are checked (`PUBSUB_AUDIENCE`, `PUBSUB_SERVICE_ACCOUNT`, `GOOGLE_KEYS_FILE`);
    /// `nil` takes no push as fact.
    public var playPushAuthentication: GooglePlayPushAuthentication?

    /// The defaults: the embedded store in `./ledger-state` on 127.0.0.1:8080, nothing else configured.
    public init() {}

    /// Reads `environment`; the first unusable setting is thrown.
    public init(environment: [String: String]) throws(ConfigurationError) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let bind = value("LEDGER_BIND") {
            guard let colon = bind.lastIndex(of: ":"), let port = Int(bind[bind.index(after: colon)...]),
                (0...65_535).contains(port), colon != bind.startIndex
            else { throw ConfigurationError(variable: "LEDGER_BIND", reason: "is not HOST:PORT") }
            host = String(bind[..<colon])
            self.port = port
        }
        if let directory = value("LEDGER_STATE_DIR") { stateDirectory = URL(fileURLWithPath: directory) }
        if let url = value("LEDGER_DATABASE_URL") {
            database = try DatabaseAddress(url: url, password: value("PGPASSWORD"))
        }
        if let file = value("LEDGER_CATALOG") {
            let data = try Self.read(file, "LEDGER_CATALOG")
            do {
                catalog = try EntitlementCatalog(json: data)
            } catch {
                throw ConfigurationError(variable: "LEDGER_CATALOG", reason: "is not a catalog: \(error)")
            }
        }
        bundleId = value("LEDGER_BUNDLE_ID")
        packageName = value("LEDGER_PACKAGE_NAME")
        if let files = value("LEDGER_ROOT_CERTIFICATES") {
            var certificates: [Data] = []
            for file in files.split(separator: ",").map(String.init) {
                let data = try Self.read(file, "LEDGER_ROOT_CERTIFICATES")
                do {
                    certificates += try AppStoreJWSVerifier.certificates(fromPEMOrDER: data)
                } catch {
                    throw ConfigurationError(
                        variable: "LEDGER_ROOT_CERTIFICATES", reason: "\(file) is not a certificate")
                }
            }
            rootCertificates = certificates
        }
        switch value("LEDGER_ENVIRONMENTS") {
        case nil, "production": ledger.environments = [.production]
        case "sandbox": ledger.environments = [.sandbox]
        case "both": ledger.environments = [.production, .sandbox]
        default: throw ConfigurationError(variable: "LEDGER_ENVIRONMENTS", reason: "is not production, sandbox or both")
        }
        if let text = value("LEDGER_RESTORE_BEHAVIOR") {
            guard let behavior = RestoreBehavior(rawValue: text) else {
                let known = RestoreBehavior.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(variable: "LEDGER_RESTORE_BEHAVIOR", reason: "is not one of \(known)")
            }
            ledger.restoreBehavior = behavior
        }
        if let file = value("STRIPE_WEBHOOK_SECRETS_FILE") {
            let lines = String(decoding: try Self.read(file, "STRIPE_WEBHOOK_SECRETS_FILE"), as: UTF8.self)
            stripeWebhookSecrets = lines.split(whereSeparator: \.isNewline).map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            guard !stripeWebhookSecrets.isEmpty else {
                throw ConfigurationError(variable: "STRIPE_WEBHOOK_SECRETS_FILE", reason: "holds no secret")
            }
        }
        if let file = value("LEDGER_SESSIONS_FILE") {
            let data = try Self.read(file, "LEDGER_SESSIONS_FILE")
            guard let sessions = try? JSONDecoder().decode([String: String].self, from: data) else {
                throw ConfigurationError(
                    variable: "LEDGER_SESSIONS_FILE",
                    reason: #"is not a JSON object {"<bearer token>": "<app user id>"}"#)
            }
            self.sessions = sessions
        }
        playAPI = try Self.url(value("PLAY_API_BASE_URL"), "PLAY_API_BASE_URL")
        stripeAPI = try Self.url(value("STRIPE_API_BASE_URL"), "STRIPE_API_BASE_URL")
        if let file = value("GOOGLE_SERVICE_ACCOUNT_FILE") {
            googleServiceAccount = try GoogleServiceAccount(
                json: try Self.read(file, "GOOGLE_SERVICE_ACCOUNT_FILE"))
        }
        if let file = value("STRIPE_SECRET_KEY_FILE") {
            let key = String(decoding: try Self.read(file, "STRIPE_SECRET_KEY_FILE"), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !key.isEmpty else { throw ConfigurationError(variable: "STRIPE_SECRET_KEY_FILE", reason: "is empty") }
            stripeSecretKey = key
        }
        let push = ["PUBSUB_AUDIENCE", "PUBSUB_SERVICE_ACCOUNT", "GOOGLE_KEYS_FILE"]
        if push.contains(where: { value($0) != nil }) {
            // One or two of the three would leave pushes unchecked while the operator believes them checked.
            guard let audience = value(push[0]), let account = value(push[1]), let file = value(push[2]) else {
                let missing = push.first { value($0) == nil } ?? push[0]
                throw ConfigurationError(
                    variable: missing,
                    reason: "is needed with \(push.filter { value($0) != nil }.joined(separator: ", "))")
            }
            let keys: GoogleSigningKeys
            do {
                keys = try GoogleSigningKeys(jwks: try Self.read(file, "GOOGLE_KEYS_FILE"))
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError(
                    variable: "GOOGLE_KEYS_FILE", reason: "\(file) is not a JWKS of RSA keys: \(error)")
            }
            guard !keys.keyIds.isEmpty else {
                throw ConfigurationError(variable: "GOOGLE_KEYS_FILE", reason: "\(file) holds no RSA signing key")
            }
            playPushAuthentication = GooglePlayPushAuthentication(
                audience: audience, serviceAccountEmail: account, keys: keys)
        }
    }

    /// The ledger's sources: App Store with a bundle id, Play with a package name, Stripe with webhook
    /// secrets (or a secret key, for fetched objects).
    public var sources: [any LedgerSource] {
        var sources: [any LedgerSource] = []
        if let bundleId {
            sources.append(
                AppStoreLedgerSource(catalog: catalog, bundleId: bundleId, rootCertificates: rootCertificates))
        }
        if let packageName {
            sources.append(
                GooglePlayLedgerSource(
                    catalog: catalog, packageName: packageName, pushAuthentication: playPushAuthentication))
        }
        if !stripeWebhookSecrets.isEmpty || stripeSecretKey != nil {
            sources.append(StripeLedgerSource(catalog: catalog, webhookSecrets: stripeWebhookSecrets))
        }
        return sources
    }

    private static func read(_ path: String, _ variable: String) throws(ConfigurationError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError(variable: variable, reason: "\(path) cannot be read")
        }
    }

    private static func url(_ text: String?, _ variable: String) throws(ConfigurationError) -> URL? {
        guard let text else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { throw ConfigurationError(variable: variable, reason: "is not an http(s) URL") }
        return url
    }
}

/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`: where the PostgreSQL store connects.
public struct DatabaseAddress: Sendable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

    /// Reads `url`; `password` (`PGPASSWORD`) when the URL has none.
    public init(url: String, password: String?) throws(ConfigurationError) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
        else {
            throw ConfigurationError(variable: "LEDGER_DATABASE_URL", reason: "is not postgres://USER@HOST:PORT/DB")
        }
        let name = String(components.path.drop { $0 == "/" })
        self.host = host
        port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? password
        database = name.isEmpty ? self.user : (name.removingPercentEncoding ?? name)
    }
}
