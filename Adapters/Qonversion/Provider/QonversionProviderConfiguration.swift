import EntitlementKit
import EntitlementKitHTTP
import Foundation

extension QonversionProvider {
    /// How the provider reaches Qonversion: the project key, the base URL (Qonversion's API or your
    /// proxy), sandbox mode, the `Platform` it reports, and the HTTP options (timeout, retries, size cap).
    ///
    /// Its `description`, `debugDescription` and mirror never show the key.
    public struct Configuration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// `https://api2.qonversion.io/`, the host of the v1 user endpoints the mobile SDKs call.
        public static let defaultBaseURL = "https://api2.qonversion.io/"

        /// The project key, sent as `Authorization: Bearer` (and as `access_token` in bodies, as the iOS
        /// SDK does).
        public let projectKey: APIKey
        /// Where requests go.
        public let baseURL: BackendBaseURL
        /// Sandbox (debug) mode: the key is sent as `test_<key>` and bodies say `debug_mode: true`, as
        /// Qonversion's SDKs do in debug mode.
        public var sandbox: Bool
        /// The `Platform` header (`iOS`, `macOS`, …); `nil` sends none.
        public var platform: String?
        /// Timeout, retries, size cap.
        public var connection: HTTPConnectionOptions

        /// Checks the key and the base URL: a secret key (`sk_…`, `test_sk_…`), a malformed key or a
        /// plain-http base URL off loopback is ``EntitlementClientError/Code/credentialsRefused``.
        public init(
            projectKey: String, baseURL: URL? = nil, sandbox: Bool = false,
            platform: String? = Configuration.defaultPlatform,
            connection: HTTPConnectionOptions = HTTPConnectionOptions()
        ) throws(EntitlementClientError) {
            self.projectKey = try APIKey(projectKey)
            if let baseURL {
                self.baseURL = try BackendBaseURL(baseURL)
            } else {
                self.baseURL = try BackendBaseURL(Self.defaultBaseURL)
            }
            self.sandbox = sandbox
            self.platform = platform
            self.connection = connection
        }

        /// The platform this code runs on; `nil` off Apple platforms.
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

        /// The base URL, mode, platform and options; the key as `<redacted>`.
        public var description: String {
            "QonversionProvider.Configuration(projectKey: <redacted>, baseURL: \(baseURL), sandbox: \(sandbox), platform: \(platform ?? "none"), \(connection))"
        }

        /// Same as ``description``.
        public var debugDescription: String { description }

        /// A mirror without the key.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: [
                    (label: "projectKey", value: "<redacted>" as Any), (label: "baseURL", value: baseURL.url as Any),
                    (label: "sandbox", value: sandbox as Any), (label: "platform", value: platform as Any),
                ],
                displayStyle: .struct)
        }
    }
}
