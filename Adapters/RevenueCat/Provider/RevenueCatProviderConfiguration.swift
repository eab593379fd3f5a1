import EntitlementKit
import EntitlementKitHTTP
import Foundation

extension RevenueCatProvider {
    /// How the provider reaches RevenueCat: the public API key, the base URL (RevenueCat's API or your
    /// proxy), the `X-Platform` it reports, and the HTTP options (timeout, retries, size cap).
    ///
    /// Its `description`, `debugDescription` and mirror never show the key.
    public struct Configuration: VendorProviderConfiguration {
        /// `https://api.revenuecat.com/`.
        public static let defaultBaseURL = "https://api.revenuecat.com/"

        /// The key, base URL and HTTP options every live provider has.
        public var live: LiveProviderConfiguration
        /// The `X-Platform` header of reads and logIns (`iOS`, `macOS`, `android`, …): RevenueCat picks the
        /// store of `management_url` by it. Receipts name the platform of their store instead. `nil` sends
        /// no header.
        public var platform: String?

        /// The public (SDK) API key, sent as `Authorization: Bearer`.
        public var apiKey: APIKey { live.key }

        /// Checks the key and the base URL: a secret key (`sk_…`), a malformed key or a plain-http base
        /// URL off loopback is ``EntitlementClientError/Code/credentialsRefused``.
        public init(
            apiKey: String, baseURL: URL? = nil, platform: String? = Configuration.defaultPlatform,
            connection: HTTPConnectionOptions = HTTPConnectionOptions()
        ) throws(EntitlementClientError) {
            live = try LiveProviderConfiguration(
                key: apiKey, baseURL: baseURL, defaultBaseURL: Self.defaultBaseURL, connection: connection)
            self.platform = platform
        }

        /// The platform this code runs on, in RevenueCat's spelling; `nil` off Apple platforms.
        public static var defaultPlatform: String? { LiveProviderConfiguration.applePlatformName }

        /// The base URL, platform and options; the key as `<redacted>`.
        public var description: String {
            live.redactedDescription(
                of: "RevenueCatProvider.Configuration", keyLabel: "apiKey", fields: ["platform": platform ?? "none"])
        }

        /// A mirror without the key.
        public var customMirror: Mirror {
            live.redactedMirror(of: self, keyLabel: "apiKey", fields: ["platform": platform as Any])
        }
    }
}
