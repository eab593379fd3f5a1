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
    }

    /// What was wrong.
    public var kind: Kind
    /// Why, naming the input's part and value.
    public var message: String
    /// The located error behind it, when a document or payload failed to read.
    public var documentError: DocumentError?

    /// A refusal of `kind`.
    public init(_ kind: Kind, _ message: String, documentError: DocumentError? = nil) {
        self.kind = kind
        self.message = message
        self.documentError = documentError
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
