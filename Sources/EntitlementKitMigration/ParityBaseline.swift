import EntitlementKit

/// Side A of a parity check: every customer of the first export, by app user id.
///
/// Add all of A's snapshots, then compare B's against them with ``ParityComparison``. Only what
/// ``SnapshotDiff`` reads is kept (transactions are dropped), so memory grows with A's customers and
/// entitlements, not with the size of their documents.
public struct ParityBaseline: Sendable {
    struct Customer: Sendable {
        var snapshot: EntitlementSnapshot
        var line: Int
    }

    /// Keyed by the id's bytes, as backends compare ids (`AppUserIdKey`): `"café"` precomposed and
    /// `"cafe\u{301}"` are two customers, though Swift's `String` calls them equal.
    private(set) var customers: [AppUserIdKey: Customer] = [:]
    /// When joining on aliases: each alias of a customer added → that customer's app user id.
    private(set) var aliasOwners: [AppUserIdKey: AppUserIdKey] = [:]
    /// Whether a customer is also found by its snapshot's ``EntitlementSnapshot/aliases``.
    public let joinsAliases: Bool

    /// Creates an empty baseline.
    ///
    /// - Parameter joiningAliases: also find each customer by the ids its snapshot lists in
    ///   ``EntitlementSnapshot/aliases`` (a ledger's export), so the other side's line for one of those ids
    ///   joins it (`parity --join-aliases`).
    public init(joiningAliases: Bool = false) {
        joinsAliases = joiningAliases
    }

    /// The number of distinct customers added.
    public var count: Int { customers.count }

    /// Adds the customer of `snapshot`, read from `line`.
    ///
    /// Fails, adding nothing, when the snapshot has no ``EntitlementSnapshot/appUserId`` (nothing to join
    /// on) or when that id — or, joining aliases, any of its ids — was already added: a customer must appear
    /// once per file, and picking one of two records silently would hide exactly the kind of export bug a
    /// parity check is for.
    public mutating func add(_ snapshot: EntitlementSnapshot, line: Int) throws(DocumentError) {
        let key = try Self.joinKey(of: snapshot)
        let aliases = joinsAliases ? Self.aliasKeys(of: snapshot) : []
        for id in [key] + aliases {
            if let holder = holder(of: id), let first = customers[holder] {
                throw Self.duplicate(id.appUserId, firstLine: first.line)
            }
        }
        customers[key] = Customer(snapshot: Self.comparable(snapshot), line: line)
        for alias in aliases { aliasOwners[alias] = key }
    }

    /// The app user id of the customer holding `id`, as its name or (joining aliases) as an alias.
    func holder(of id: AppUserIdKey) -> AppUserIdKey? {
        customers[id] != nil ? id : aliasOwners[id]
    }

    /// The snapshot's aliases, compared by their bytes.
    static func aliasKeys(of snapshot: EntitlementSnapshot) -> [AppUserIdKey] {
        (snapshot.aliases ?? []).map(AppUserIdKey.init)
    }

    /// The snapshot's app user id, compared by its bytes.
    static func joinKey(of snapshot: EntitlementSnapshot) throws(DocumentError) -> AppUserIdKey {
        guard let appUserId = snapshot.appUserId else {
            throw DocumentError(
                kind: .missingField, path: JSONPath.root.appending("appUserId"),
                reason:
                    "is required to join the two exports but missing (wrap the response in an envelope with an appUserId)"
            )
        }
        return AppUserIdKey(appUserId)
    }

    static func duplicate(_ appUserId: String, firstLine: Int) -> DocumentError {
        DocumentError(
            kind: .inconsistent, path: JSONPath.root.appending("appUserId"),
            value: JSONValue.string(appUserId).compactText,
            reason:
                "already appeared on line \(firstLine); a customer must appear once per file, so this record is not compared"
        )
    }

    /// The snapshot without what a diff never reads.
    static func comparable(_ snapshot: EntitlementSnapshot) -> EntitlementSnapshot {
        var copy = snapshot
        for var entitlement in snapshot.entitlements.values {
            entitlement.transactions = []
            copy.updateEntitlement(entitlement)
        }
        copy.nonSubscriptionTransactions = []
        return copy
    }
}
