import EntitlementKit

/// The form of the anonymous app user ids the provider makes and recognises: a prefix and 32 lowercase
/// hex digits (128 random bits). The default is RevenueCat's, `$RCAnonymousID:` + 32 hex digits, so an
/// app leaving RevenueCat keeps the anonymous ids its customers already have; the server's ledger must
/// be configured with the same form.
public struct OwnBackendAnonymousIdForm: Sendable, Hashable, CustomStringConvertible {
    /// What every anonymous id starts with.
    public let prefix: String

    /// RevenueCat's: `$RCAnonymousID:` + 32 lowercase hex digits.
    public static let revenueCat = OwnBackendAnonymousIdForm(checkedPrefix: "$RCAnonymousID:")

    /// A form of your own. A prefix that would make ids the client refuses (empty, holding `/`, NUL or
    /// whitespace, or longer than 60 characters) is ``EntitlementKit/EntitlementClientError/Code/invalidAppUserId``.
    public init(prefix: String) throws(EntitlementClientError) {
        guard !prefix.isEmpty, prefix.unicodeScalars.count <= 60,
            !prefix.unicodeScalars.contains(where: { $0 == "/" || $0 == "\u{0}" || $0.properties.isWhitespace })
        else {
            throw EntitlementClientError(
                .invalidAppUserId,
                "the anonymous id prefix \(DocumentError.quoted(prefix)) must be 1 to 60 characters without /, NUL or whitespace"
            )
        }
        self.init(checkedPrefix: prefix)
    }

    private init(checkedPrefix: String) {
        prefix = checkedPrefix
    }

    /// Whether `appUserId` is the prefix followed by exactly 32 lowercase hex digits (compared by bytes).
    public func matches(_ appUserId: String) -> Bool {
        let id = Array(appUserId.utf8)
        let start = Array(prefix.utf8)
        guard id.count == start.count + 32, id.starts(with: start) else { return false }
        return id[start.count...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `<prefix> + 32 hex`.
    public var description: String { prefix + " + 32 hex" }
}
