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

/// A document the server fetched from a store itself: what the source's adapter reads. What the app posts
/// is a ``LedgerClaim``, never a document: a document body never comes from the app.
public struct LedgerDocument: Sendable, Hashable {
    /// Which source's document it is.
    public var source: LedgerSourceID
    /// The document's JSON bytes.
    public var body: Data
    /// The purchase token the document answers for (a Play purchase resource does not carry its own).
    public var purchaseToken: String?
    /// The app user id the server authenticated when the app's claim led to this fetch: the document is
    /// then *posted as* that id (restore, sync, purchase), by the restore rules.
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

/// What the app posts (a purchase, restore or sync through `OwnBackendProvider`,
/// `{"store", "token", "productId"?}`) for the app user id the server authenticated: a **claim**, never
/// taken as fact. The App Store's is one StoreKit 2 `jwsRepresentation` or a JSON array of them, each
/// verified; a Play purchase token or a Stripe checkout session or subscription id is answered
/// ``LedgerOutcome/refreshNeeded(purchaseToken:productId:)``, and the server applies the document it
/// fetched from the store itself, for that app user id.
///
/// ```swift
/// let claim = LedgerClaim(source: .googlePlay, token: token, productId: productId, appUserId: user, receivedAt: .now)
/// var outcome = try await ledger.apply(claim)
/// if case .refreshNeeded(let token, let productId) = outcome {
///     let fetched = try await playAPI.purchase(token, productId)   // your call to Google's API
///     outcome = try await ledger.apply(
///         LedgerDocument(source: .googlePlay, body: fetched, purchaseToken: token, appUserId: user, receivedAt: .now))
/// }
/// ```
public struct LedgerClaim: Sendable, Hashable {
    /// The store the app names.
    public var source: LedgerSourceID
    /// What the store gave the app: a JWS (or a JSON array of them), a purchase token, a Stripe id.
    public var token: String
    /// The product the app names, if it does (a purchase just made).
    public var productId: String?
    /// The app user id the server authenticated.
    public var appUserId: String
    /// When the server received it.
    public var receivedAt: Date

    /// A claim posted by `appUserId`.
    public init(source: LedgerSourceID, token: String, productId: String? = nil, appUserId: String, receivedAt: Date) {
        self.source = source
        self.token = token
        self.productId = productId
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
