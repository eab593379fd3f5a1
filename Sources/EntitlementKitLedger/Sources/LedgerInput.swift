import EntitlementKit
import Foundation

/// A notification a store pushed to the server: the raw body and headers as received.
public struct LedgerNotification: Sendable, Hashable {
    /// Which source sent it.
    public var source: LedgerSourceID
    /// The request body, byte for byte (signatures are over these bytes).
    public var body: Data
    /// The request headers; names compare case-insensitively (see ``header(_:)``).
    public var headers: [String: String]
    /// When the server received it: the "now" of every rule that needs one (a Stripe signature's
    /// tolerance, `transferIfNoActiveSubscriptions`), so an archive replays the same at any time.
    public var receivedAt: Date

    /// A notification from `source`.
    public init(source: LedgerSourceID, body: Data, headers: [String: String] = [:], receivedAt: Date) {
        self.source = source
        self.body = body
        self.headers = headers
        self.receivedAt = receivedAt
    }

    /// The value of the header `name`, compared without regard to ASCII case (HTTP header names are).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }
}

/// A document the server fetched from a store, or the app posted: what the source's adapter reads.
public struct LedgerDocument: Sendable, Hashable {
    /// Which source's document it is.
    public var source: LedgerSourceID
    /// The document's JSON bytes.
    public var body: Data
    /// The purchase token the document answers for (a Play purchase resource does not carry its own).
    public var purchaseToken: String?
    /// The app user id the server authenticated when the app posted it: the document is then *posted as*
    /// that id (restore, sync, purchase), by the restore rules.
    public var appUserId: String?
    /// When it was fetched or received: a fetched document is newer than any before it.
    public var receivedAt: Date

    /// A document from `source`.
    public init(
        source: LedgerSourceID, body: Data, purchaseToken: String? = nil, appUserId: String? = nil, receivedAt: Date
    ) {
        self.source = source
        self.body = body
        self.purchaseToken = purchaseToken
        self.appUserId = appUserId
        self.receivedAt = receivedAt
    }
}

/// One input of a ledger, as a replay log holds them.
public enum LedgerInput: Sendable, Hashable {
    /// A store's notification.
    case notification(LedgerNotification)
    /// A fetched or posted document.
    case document(LedgerDocument)
    /// `logIn(from:to:)`.
    case logIn(from: String, to: String)
    /// `link(_:to:)`.
    case link(LedgerAccountKey, to: String)
}
