import EntitlementKit
import Foundation

/// One statement about one purchase, as a source read it: the newest statement of each kind about a
/// purchase is what the ledger keeps, and what the source's mapping reads back.
public struct LedgerRecord: Sendable, Hashable, Codable {
    /// The purchase it speaks of, in the source's terms: an `originalTransactionId`, a purchase token, a
    /// subscription or checkout session id.
    public var thread: String
    /// Other keys naming the same purchase (a Play token's `linkedPurchaseToken`): the threads are one.
    public var threadAliases: [String]
    /// Which statement about the thread this is (`transaction 2000000123`, `renewalInfo`, `status`,
    /// `document`, `voided`): a record replaces the kept one of the same statement only when its
    /// ``order`` is greater.
    public var statement: String
    /// The record's place among the statements of its kind.
    public var order: LedgerOrderKey
    /// The source's own bytes for its mapping (a verified payload, a fetched document).
    public var body: Data
    /// Whether a signature over the statement was checked.
    public var isVerified: Bool
    /// The record's own instant (a `signedDate`, the fetch instant): a snapshot's `requestDate` is the
    /// newest.
    public var instant: Date
    /// The environment the statement is from; `nil` when the input does not say (an RTDN).
    public var environment: Environment?
    /// Who the record says the purchase belongs to, first match wins.
    public var accountLinks: [LedgerAccountLink]

    /// A record.
    public init(
        thread: String, threadAliases: [String] = [], statement: String, order: LedgerOrderKey, body: Data,
        isVerified: Bool, instant: Date, environment: Environment?, accountLinks: [LedgerAccountLink] = []
    ) {
        self.thread = thread
        self.threadAliases = threadAliases
        self.statement = statement
        self.order = order
        self.body = body
        self.isVerified = isVerified
        self.instant = instant
        self.environment = environment
        self.accountLinks = accountLinks
    }
}
