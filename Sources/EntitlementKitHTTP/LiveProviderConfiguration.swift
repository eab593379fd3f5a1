import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// What every live provider's configuration holds: the backend's public key, where requests go (the
/// vendor's API or your proxy) and the HTTP options. Each provider's `Configuration` wraps one and adds
/// its vendor's own settings (a platform header, sandbox mode…).
///
/// Its `description`, `debugDescription` and mirror never show the key.
public struct LiveProviderConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The public (SDK) key, sent in the `Authorization` header.
    public let key: APIKey
    /// Where requests go.
    public let baseURL: BackendBaseURL
    /// Timeout, retries, size cap.
    public var connection: HTTPConnectionOptions

    /// Checks the key and the base URL (`defaultBaseURL` when `baseURL` is `nil`): a secret key (one of
    /// ``APIKey/secretKeyPrefixes`` or of the vendor's own `secretKeyPrefixes`), a malformed key or a
    /// plain-http base URL off loopback is ``EntitlementKit/EntitlementClientError/Code/credentialsRefused``.
    /// The key is checked first, so an error about the URL never follows a secret key that was accepted.
    public init(
        key: String, baseURL: URL?, defaultBaseURL: String, secretKeyPrefixes: [String] = [],
        connection: HTTPConnectionOptions = HTTPConnectionOptions()
    ) throws(EntitlementClientError) {
        self.key = try APIKey(key, refusingAlso: secretKeyPrefixes)
        if let baseURL {
            self.baseURL = try BackendBaseURL(baseURL)
        } else {
            self.baseURL = try BackendBaseURL(defaultBaseURL)
        }
        self.connection = connection
    }

    /// The platform this code runs on (`iOS`, `macOS`, `tvOS`, `watchOS`, `visionOS`); `nil` off Apple
    /// platforms. RevenueCat and Qonversion both report it in a header.
    public static var applePlatformName: String? {
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

    /// The base URL and options; the key as `<redacted>`.
    public var description: String {
        redactedDescription(of: "LiveProviderConfiguration", keyLabel: "key", fields: [:])
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the key.
    public var customMirror: Mirror { redactedMirror(of: self, keyLabel: "key", fields: [:]) }

    /// `<provider>-<16 hex digits>`: the provider's raw value and the first 8 bytes of the SHA-256 of the
    /// key, so two projects of one backend sharing a cache directory are two namespaces
    /// (``EntitlementKit/EntitlementProvider/storageNamespace``). A digest, never the key: directory
    /// names are seen by anyone who lists the app's container.
    package func storageNamespace(for provider: ProviderID) -> String {
        Self.storageNamespace(for: provider, digesting: key.secretValue)
    }

    /// `<provider>-<16 hex digits>`: the provider's raw value and the first 8 bytes of the SHA-256 of
    /// `text` (what tells one project of the backend from another).
    package static func storageNamespace(for provider: ProviderID, digesting text: String) -> String {
        let digest = SHA256.digest(of: Array(text.utf8))
        var hex = ""
        for byte in digest.prefix(8) {
            hex += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return provider.rawValue + "-" + hex
    }

    /// `Name(keyLabel: <redacted>, baseURL: …, field: value, …, HTTPConnectionOptions(…))`: a vendor
    /// configuration's description, built here so no provider can forget to hide its key.
    package func redactedDescription(of typeName: String, keyLabel: String, fields: KeyValuePairs<String, String>)
        -> String
    {
        var parts = ["\(keyLabel): <redacted>", "baseURL: \(baseURL)"]
        for (label, value) in fields { parts.append("\(label): \(value)") }
        parts.append("\(connection)")
        return typeName + "(" + parts.joined(separator: ", ") + ")"
    }

    /// A mirror of `subject` whose key child says `<redacted>`, followed by the base URL and `fields`.
    package func redactedMirror(of subject: Any, keyLabel: String, fields: KeyValuePairs<String, Any>) -> Mirror {
        var children: [(label: String?, value: Any)] = [
            (label: keyLabel, value: "<redacted>" as Any), (label: "baseURL", value: baseURL.url as Any),
        ]
        for (label, value) in fields { children.append((label: label, value: value)) }
        return Mirror(subject, children: children, displayStyle: .struct)
    }
}
