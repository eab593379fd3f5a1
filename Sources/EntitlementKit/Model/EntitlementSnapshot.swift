import Foundation

/// Everything one backend said about one customer's access, mapped into the unified model and
/// evaluated at one instant.
///
/// Snapshots are what adapters produce, what the CLI prints, and what contract tests and migration
/// diffs compare. Ask it the questions a paywall asks:
///
/// ```swift
/// if snapshot["premium"]?.isActive == true { unlockPremium() }
/// let unlocked = snapshot.active.map(\.id)
/// ```
///
/// A snapshot answers for its ``evaluatedAt`` instant; ``evaluated(at:)`` re-judges it later (a cached
/// snapshot after a day offline) without the vendor's document.
public struct EntitlementSnapshot: Sendable, Hashable {
    /// The version of the unified JSON form this type writes (3: every entitlement's `denial`). Version 1
    /// and 2 documents (written before `verification`, the cancellation reason and the denial existed) are
    /// still read: see ``readableSchemaVersions``.
    public static let schemaVersion = 3

    /// Every version of the unified JSON form this type reads: 1 and 2 (their missing keys read as
    /// `notRequested` and `null`; a missing `denial` as described in ``init(json:)-(JSONNode)``) and 3.
    public static let readableSchemaVersions: ClosedRange<Int64> = 1...3

    /// The adapter that produced it: `revenuecat`, `qonversion`, …
    public var provider: ProviderID
    /// The customer the response belongs to.
    public var appUserId: String?
    /// The customer's other app user ids, sorted by their UTF-8 bytes, or `nil` when the source does not
    /// say (every vendor adapter). An own-backend ledger's export and replay state them, so a parity check
    /// can join a vendor's line to the customer holding its id (`parity --join-aliases`).
    ///
    /// Written as the optional `aliases` member of schema 3 only when set; a document without it reads as
    /// `nil`.
    public var aliases: [String]?
    /// The first app user id the backend knew for this customer (RevenueCat).
    public var originalAppUserId: String?
    /// The server's time when it answered.
    public var requestDate: Date?
    /// The instant ``Entitlement/isActive`` answers for, in every entitlement; ``evaluated(at:)`` moves it.
    public internal(set) var evaluatedAt: Date
    /// Whether the backend's answer was verified cryptographically (App Store JWS) before mapping.
    public var verification: SnapshotVerification
    /// When the backend first saw the customer (RevenueCat).
    public var firstSeen: Date?
    /// Where the customer manages their subscription.
    public var managementURL: URL?
    /// The app version of the customer's first download (App Store).
    public var originalApplicationVersion: String?
    /// When the customer first downloaded or bought the app (App Store).
    public var originalPurchaseDate: Date?
    /// Every entitlement the backend reported, active or not, by id.
    ///
    /// Read-only, so that each key is its entitlement's ``Entitlement/id`` and each entitlement is judged at
    /// ``evaluatedAt``; change it with ``updateEntitlement(_:)`` and ``removeEntitlement(id:)``.
    public internal(set) var entitlements: [String: Entitlement]
    /// One-time purchases, oldest first.
    public var nonSubscriptionTransactions: [Transaction]

    /// Creates a snapshot. Each entitlement is judged at `evaluatedAt`, whatever instant it was created
    /// at (``Entitlement/evaluated(at:)``). Ids must be unique: of two entitlements with one id, the later
    /// in `entitlements` is kept. (Adapters refuse documents with duplicate ids before this point.)
    public init(
        provider: ProviderID,
        appUserId: String? = nil,
        originalAppUserId: String? = nil,
        requestDate: Date? = nil,
        evaluatedAt: Date,
        verification: SnapshotVerification = .notRequested,
        firstSeen: Date? = nil,
        managementURL: URL? = nil,
        originalApplicationVersion: String? = nil,
        originalPurchaseDate: Date? = nil,
        entitlements: [Entitlement] = [],
        nonSubscriptionTransactions: [Transaction] = []
    ) {
        self.provider = provider
        self.appUserId = appUserId.nonEmpty
        self.originalAppUserId = originalAppUserId.nonEmpty
        self.requestDate = requestDate
        self.evaluatedAt = evaluatedAt
        self.verification = verification
        self.firstSeen = firstSeen
        self.managementURL = managementURL
        self.originalApplicationVersion = originalApplicationVersion
        self.originalPurchaseDate = originalPurchaseDate
        // Each entitlement moved, not copied, into the dictionary and judged in place: taken from the back of
        // the list, so an id already placed came later in `entitlements`, and that one is kept. The list is
        // consumed, so that taking from it does not first copy all of it.
        var pending = consume entitlements
        var byId = [String: Entitlement](minimumCapacity: pending.count)
        while var entitlement = pending.popLast() {
            entitlement.evaluatedAt = evaluatedAt
            let id = entitlement.id
            if let later = byId.updateValue(consume entitlement, forKey: id) { byId[id] = later }
        }
        self.entitlements = byId
        self.nonSubscriptionTransactions = nonSubscriptionTransactions
    }

    /// Adds `entitlement` under its ``Entitlement/id``, or replaces the one with that id, judged at
    /// ``evaluatedAt``.
    ///
    /// - Returns: The entitlement it replaced, if any.
    @discardableResult
    public mutating func updateEntitlement(_ entitlement: Entitlement) -> Entitlement? {
        entitlements.updateValue(entitlement.evaluated(at: evaluatedAt), forKey: entitlement.id)
    }

    /// Removes the entitlement `id`.
    ///
    /// - Returns: The entitlement removed, if there was one.
    @discardableResult
    public mutating func removeEntitlement(id: String) -> Entitlement? {
        entitlements.removeValue(forKey: id)
    }

    /// The entitlement `id`, active or not.
    public subscript(id: String) -> Entitlement? {
        entitlements[id]
    }

    /// Every entitlement, sorted by id.
    public var all: [Entitlement] {
        entitlements.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    /// The entitlements the customer has access to at ``evaluatedAt``, sorted by id.
    public var active: [Entitlement] {
        all.filter(\.isActive)
    }

    /// The sorted ids of ``active``.
    public var activeEntitlementIds: [String] {
        active.map(\.id)
    }

    /// Whether the customer has access to anything at all.
    public var hasActiveEntitlement: Bool {
        entitlements.values.contains(where: \.isActive)
    }

    /// Whether entitlement `id` exists and is active.
    public func isActive(_ id: String) -> Bool {
        entitlements[id]?.isActive ?? false
    }

    /// The entitlements unlocked by product `productId`, sorted by id.
    public func entitlements(forProduct productId: String) -> [Entitlement] {
        all.filter { $0.productId == productId }
    }
}
