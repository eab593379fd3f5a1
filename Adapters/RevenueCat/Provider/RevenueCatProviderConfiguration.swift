import EntitlementKit
import EntitlementKitHTTP
import Foundation

extension RevenueCatProvider {
    /// How the provider reaches RevenueCat: the public API key, the base URL (RevenueCat's API or your
    /// proxy), the `X-Platform` it reports, and the HTTP options (timeout, retries, size cap).
    ///
    /// Its `description`, `debugDescription` and mirror never show the key.
    public struct Configuration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// `https://api.revenuecat.com/`.
        public static let defaultBaseURL = "https://api.revenuecat.com/"

        /// The public (SDK) API key, sent as `Authorization: Bearer`.
        public let apiKey: APIKey
        /// Where requests go.
        public let baseURL: BackendBaseURL
        /// The `X-Platform` header of reads and logIns (`iOS`, `macOS`, `android`, …): RevenueCat picks the
        /// store of `management_url` by it. Receipts name the platform of their store instead. `nil` sends
        /// no header.
        public var platform: String?
        /// Timeout, retries, size cap.
        public var connection: HTTPConnectionOptions

        /// Checks the key and the base URL: a secret key (`sk_…`), a malformed key or a plain-http base
        /// URL off loopback is ``EntitlementClientError/Code/credentialsRefused``.
        public init(
            apiKey: String, baseURL: URL? = nil, platform: String? = Configuration.defaultPlatform,
            connection: HTTPConnectionOptions = HTTPConnectionOptions()
        ) throws(EntitlementClientError) {
            self.apiKey = try APIKey(apiKey)
            if let baseURL {
                self.baseURL = try BackendBaseURL(baseURL)
            } else {
                self.baseURL = try BackendBaseURL(Self.defaultBaseURL)
            }
            self.platform = platform
            self.connection = connection
        }

        /// The platform this code runs on, in RevenueCat's spelling; `nil` off Apple platforms.
        public static var defaultPlatform: String? {
            #if os(iOS)
                "iOS"
            #elseif os(macOS)
                "macOS"
            #elseif os(tvOS)
                "tvOS"
            #elseif os(watchOS)
                "watchOS"
            #elseif os(visionOS)
                "visionOS"
            #else
                nil
            #endif
        }

        /// The base URL, platform and options; the key as `<redacted>`.
        public var description: String {
            "RevenueCatProvider.Configuration(apiKey: <redacted>, baseURL: \(baseURL), platform: \(platform ?? "none"), \(connection))"
        }

        /// Same as ``description``.
        public var debugDescription: String { description }

        /// A mirror without the key.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: [
                    (label: "apiKey", value: "<redacted>" as Any), (label: "baseURL", value: baseURL.url as Any),
                    (label: "platform", value: platform as Any),
                ],
                displayStyle: .struct)
        }
    }
}
