import EntitlementKit

/// Why a ledger refused an input (or could not keep it): nothing of the input was stored.
public struct LedgerRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A signature did not verify (a JWS, a Stripe signature), or a signed part is missing.
        case signature
        /// A certificate chain did not lead to a configured root, or lacked what it must hold.
        case certificateChain
        /// The input is from an environment the ledger does not accept (sandbox, by default).
        case environment
        /// The input is for another App Store app.
        case bundleId
        /// The input is for another Play package.
        case packageName
        /// The body is not what the source reads (not JSON, missing or wrongly typed members).
        case malformedBody
        /// No source of that name is configured.
        case unknownSource
        /// A signature's timestamp is too far from the instant the input was received.
        case timestamp
        /// An app user id the ledger will not take (empty, or refused by every backend).
        case invalidAppUserId
        /// The store could not read or write its state.
        case storage
        /// An App Store item that is not a JWS (its payload given decoded, as an object): every App Store
        /// statement in a ledger is one that verifies.
        case unsigned
        /// An Apple statement signed more than five minutes after the input was received: a statement
        /// from the future would outrank the genuine ones that follow it.
        case signedInFuture
        /// A push whose authentication (a Pub/Sub OIDC token) is missing or does not verify.
        case unauthenticated
        /// A row of the store is damaged (its seal does not match): ``LedgerRefusal/row`` names it. Only
        /// the inputs and customers that touch it are refused.
        case damaged
        /// An import named one customer by app user ids that two different customers hold.
        case aliasConflict
    }

    /// What was wrong.
    public var kind: Kind
    /// Why, naming the input's part and value.
    public var message: String
    /// The located error behind it, when a document or payload failed to read.
    public var documentError: DocumentError?
    /// The damaged row (`table/key`, as `customers/2`) of a ``Kind/damaged`` refusal.
    public var row: String?

    /// A refusal of `kind`.
    public init(_ kind: Kind, _ message: String, documentError: DocumentError? = nil, row: String? = nil) {
        self.kind = kind
        self.message = message
        self.documentError = documentError
        self.row = row
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
