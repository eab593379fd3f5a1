/// What applying one input did.
public enum LedgerOutcome: Sendable, Hashable {
    /// The snapshots of these customers changed (each named by its first app user id, sorted by bytes).
    case applied(customers: [String])
    /// The notification's id was seen before: nothing changed.
    case duplicate
    /// Nothing changed, and why: a test notification, a consumption request, a type that carries no
    /// statement, statements all older than those kept, a link that linked nothing.
    case noChange(reason: String)
    /// The input says only that something changed: fetch the purchase (and apply the document).
    case refreshNeeded(purchaseToken: String, productId: String?)
    /// The statements were kept, but no customer owns the purchase yet: it is linked when the app posts
    /// it or a ``EntitlementLedger/link(_:to:)`` registers its account id.
    case unlinked(thread: LedgerThreadID)
    /// The purchase stays with another identified customer (the restore behaviour): its statements were
    /// kept, with that owner.
    case receiptInUseByOtherUser(owner: String)
    /// An import's ``EntitlementLedger/assign(_:to:document:receivedAt:)`` named a purchase another
    /// customer already owns: nothing changed.
    case ownedByOther(owner: String)

    /// The outcome's name in `--outcomes` lines: `applied`, `duplicate`, `noChange`, `refreshNeeded`,
    /// `unlinked`, `receiptInUseByOtherUser`, `ownedByOther`.
    public var name: String {
        switch self {
        case .applied: "applied"
        case .duplicate: "duplicate"
        case .noChange: "noChange"
        case .refreshNeeded: "refreshNeeded"
        case .unlinked: "unlinked"
        case .receiptInUseByOtherUser: "receiptInUseByOtherUser"
        case .ownedByOther: "ownedByOther"
        }
    }
}

/// What ``EntitlementLedger/logIn(from:to:)`` did.
public struct LedgerLogInResult: Sendable, Hashable {
    /// Whether no customer had the new id before.
    public var created: Bool
    /// `applied` when ids were aliased or customers merged, else `noChange`.
    public var outcome: LedgerOutcome
}
