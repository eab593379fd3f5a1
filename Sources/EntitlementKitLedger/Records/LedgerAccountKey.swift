/// An account id a store carries for the server's own user: Apple's `appAccountToken`, Play's
/// `obfuscatedExternalAccountId`, a Stripe customer id — what ``EntitlementLedger/link(_:to:)`` registers.
public struct LedgerAccountKey: Sendable, Hashable, Codable, Comparable {
    /// What kind of account id it is.
    public struct Kind: RawRepresentable, Sendable, Hashable, Codable, Comparable {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// An App Store transaction's `appAccountToken` (a UUID; compared without regard to case).
        public static let appAccountToken = Kind(rawValue: "accountToken")
        /// A Play purchase's `obfuscatedExternalAccountId`.
        public static let obfuscatedAccountId = Kind(rawValue: "obfuscatedAccountId")
        /// A Stripe customer id (`cus_…`).
        public static let stripeCustomer = Kind(rawValue: "stripeCustomer")

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
        }
    }

    /// The kind.
    public var kind: Kind
    /// The value (an `appAccountToken` lower-cased, so either case names one account).
    public var value: String

    /// The key of `value` as a `kind` id.
    public init(_ kind: Kind, _ value: String) {
        self.kind = kind
        self.value = kind == .appAccountToken ? value.lowercased() : value
    }

    public static func < (lhs: LedgerAccountKey, rhs: LedgerAccountKey) -> Bool {
        lhs.kind != rhs.kind ? lhs.kind < rhs.kind : lhs.value.utf8.lexicographicallyPrecedes(rhs.value.utf8)
    }
}

/// How a record names the server's user: an account id registered with ``EntitlementLedger/link(_:to:)``,
/// and, when none is registered, the app user id it stands for itself.
///
/// A record lists its links in the source's order of precedence (Stripe: the customer id, then
/// `metadata[key]`, then `client_reference_id`); the first that names a user wins.
public struct LedgerAccountLink: Sendable, Hashable, Codable {
    /// The account id a server may register.
    public var key: LedgerAccountKey?
    /// The app user id the value is taken as when no one registered `key` (`nil`: only a registration
    /// links it, as a Stripe customer id).
    public var appUserId: String?

    /// A link through `key`, taken as `appUserId` when `key` is not registered.
    public init(key: LedgerAccountKey?, appUserId: String?) {
        self.key = key
        self.appUserId = appUserId
    }
}
