import EntitlementKit

/// A backend's API key that never shows itself: its `description`, `debugDescription` and mirror (what
/// `print`, string interpolation, `dump` and debuggers use) all say `<redacted>`.
///
/// A key is checked when it is made: a secret key (`sk_…`, `test_sk_…`), an empty key, or one holding
/// whitespace or control characters (which could split an HTTP header) is refused with
/// ``EntitlementClientError/Code/credentialsRefused``. Secret keys grant write access to every customer of
/// the project and must never ship in an app.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key itself, for the `Authorization` header only.
    package let secretValue: String

    /// Prefixes of secret keys (RevenueCat and Qonversion `sk_`, Qonversion sandbox `test_sk_`).
    public static let secretKeyPrefixes = ["sk_", "test_sk_"]

    /// Checks and wraps `value`. The error never contains the key.
    public init(_ value: String) throws(EntitlementClientError) {
        try self.init(value, refusingAlso: [])
    }

    /// Checks and wraps `value`, refusing the vendor's own secret-key prefixes (`vendorSecretPrefixes`,
    /// e.g. Adapty's `secret_`) as well as ``secretKeyPrefixes``. The error never contains the key.
    public init(_ value: String, refusingAlso vendorSecretPrefixes: [String]) throws(EntitlementClientError) {
        guard !value.isEmpty else {
            throw EntitlementClientError(.credentialsRefused, "the API key is empty")
        }
        if Self.secretKeyPrefixes.contains(where: { value.hasPrefix($0) }) {
            throw EntitlementClientError(
                .credentialsRefused,
                "refused a secret API key (sk_…): secret keys must never ship in an app; use the public (SDK) key"
            )
        }
        if let prefix = vendorSecretPrefixes.first(where: { !$0.isEmpty && value.hasPrefix($0) }) {
            throw EntitlementClientError(
                .credentialsRefused,
                "refused a secret API key (\(prefix)…): secret keys must never ship in an app; use the public (SDK) key"
            )
        }
        guard value.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw EntitlementClientError(
                .credentialsRefused,
                "the API key holds whitespace, control or non-ASCII characters; keys are printable ASCII")
        }
        secretValue = value
    }

    /// `<redacted>`.
    public var description: String { "<redacted>" }
    /// `APIKey(<redacted>)`.
    public var debugDescription: String { "APIKey(<redacted>)" }
    /// A mirror without children, so `dump` shows no key.
    public var customMirror: Mirror { Mirror(self, children: [(label: String?, value: Any)](), displayStyle: .struct) }
}
