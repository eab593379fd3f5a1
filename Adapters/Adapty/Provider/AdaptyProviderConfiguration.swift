import EntitlementKit
import EntitlementKitHTTP
import Foundation

extension AdaptyProvider {
    /// How the provider reaches Adapty: the public SDK key, the base URL (Adapty's API or your proxy), the
    /// `adapty-sdk-platform` it reports, and the HTTP options (timeout, retries, size cap).
    ///
    /// Its `description`, `debugDescription` and mirror never show the key.
    public struct Configuration: VendorProviderConfiguration {
        /// `https://api.adapty.io/`; every path below it starts with `api/v1/sdk/`, as the SDKs' do.
        public static let defaultBaseURL = "https://api.adapty.io/"

        /// Adapty's secret keys (`secret_live_…`): they reach the server-side API and must never ship in
        /// an app, so they are refused like `sk_…`.
        public static let secretKeyPrefixes = ["secret_"]

        /// The key, base URL and HTTP options every live provider has.
        public var live: LiveProviderConfiguration
        /// The `adapty-sdk-platform` header (`iOS`, `macOS`, …); `nil` sends none.
        public var platform: String?

        /// The public SDK key (`public_live_…`), sent as `Authorization: Api-Key`.
        public var publicSDKKey: APIKey { live.key }

        /// Checks the key and the base URL: a secret key (`secret_…`, `sk_…`), a malformed key or a
        /// plain-http base URL off loopback is ``EntitlementKit/EntitlementClientError/Code/credentialsRefused``.
        public init(
            publicSDKKey: String, baseURL: URL? = nil,
            platform: String? = LiveProviderConfiguration.applePlatformName,
            connection: HTTPConnectionOptions = HTTPConnectionOptions()
        ) throws(EntitlementClientError) {
            live = try LiveProviderConfiguration(
                key: publicSDKKey, baseURL: baseURL, defaultBaseURL: Self.defaultBaseURL,
                secretKeyPrefixes: Self.secretKeyPrefixes, connection: connection)
            self.platform = platform
        }

        /// The base URL, platform and options; the key as `<redacted>`.
        public var description: String {
            live.redactedDescription(
                of: "AdaptyProvider.Configuration", keyLabel: "publicSDKKey", fields: ["platform": platform ?? "none"])
        }

        /// A mirror without the key.
        public var customMirror: Mirror {
            live.redactedMirror(of: self, keyLabel: "publicSDKKey", fields: ["platform": platform as Any])
        }
    }
}
