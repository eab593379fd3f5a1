import EntitlementKit
import EntitlementKitHTTP
import Foundation

extension QonversionProvider {
    /// How the provider reaches Qonversion: the project key, the base URL (Qonversion's API or your
    /// proxy), sandbox mode, the `Platform` it reports, and the HTTP options (timeout, retries, size cap).
    ///
    /// Its `description`, `debugDescription` and mirror never show the key.
    public struct Configuration: VendorProviderConfiguration {
        /// `https://api2.qonversion.io/`, the host of the v1 user endpoints the mobile SDKs call.
        public static let defaultBaseURL = "https://api2.qonversion.io/"

        /// The key, base URL and HTTP options every live provider has.
        public var live: LiveProviderConfiguration
        /// Sandbox (debug) mode: the key is sent as `test_<key>` and bodies say `debug_mode: true`, as
        /// Qonversion's SDKs do in debug mode.
        public var sandbox: Bool
        /// The `Platform` header (`iOS`, `macOS`, …); `nil` sends none.
        public var platform: String?

        /// The project key, sent as `Authorization: Bearer` (and as `access_token` in bodies, as the iOS
        /// SDK does).
        public var projectKey: APIKey { live.key }

        /// Checks the key and the base URL: a secret key (`sk_…`, `test_sk_…`), a malformed key or a
        /// plain-http base URL off loopback is ``EntitlementClientError/Code/credentialsRefused``.
        public init(
            projectKey: String, baseURL: URL? = nil, sandbox: Bool = false,
            platform: String? = Configuration.defaultPlatform,
            connection: HTTPConnectionOptions = HTTPConnectionOptions()
        ) throws(EntitlementClientError) {
            live = try LiveProviderConfiguration(
                key: projectKey, baseURL: baseURL, defaultBaseURL: Self.defaultBaseURL, connection: connection)
            self.sandbox = sandbox
            self.platform = platform
        }

        /// The platform this code runs on; `nil` off Apple platforms.
        public static var defaultPlatform: String? { LiveProviderConfiguration.applePlatformName }

        /// The base URL, mode, platform and options; the key as `<redacted>`.
        public var description: String {
            live.redactedDescription(
                of: "QonversionProvider.Configuration", keyLabel: "projectKey",
                fields: ["sandbox": "\(sandbox)", "platform": platform ?? "none"])
        }

        /// A mirror without the key.
        public var customMirror: Mirror {
            live.redactedMirror(
                of: self, keyLabel: "projectKey", fields: ["sandbox": sandbox as Any, "platform": platform as Any])
        }
    }
}
