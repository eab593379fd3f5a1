import EntitlementKit
import Foundation

/// One source of a ledger's inputs — a store or a web billing service — as its adapter module
/// provides it: it reads (and verifies) its notifications and documents into records, and maps the
/// records of a customer's purchases to a snapshot with **its adapter's own mapping**.
///
/// The ledger knows nothing else of a source: adding one is writing its reader and its mapping. A
/// source keeps no state; the ledger keeps the records it returns.
public protocol LedgerSource: Sendable {
    /// The source's name in inputs and thread ids.
    var id: LedgerSourceID { get }

    /// Reads a notification: verifies it (a failure is a refusal, `signature` or `certificateChain`),
    /// checks it is for the configured app, and says what it states.
    func read(_ notification: LedgerNotification) throws(LedgerRefusal) -> LedgerReading

    /// Reads a document the server fetched itself.
    func read(_ document: LedgerDocument) throws(LedgerRefusal) -> LedgerReading

    /// Reads what the app posted, a claim never taken as fact. By default it is answered
    /// ``LedgerReading/Effect/refreshNeeded(purchaseToken:productId:)``: the server fetches the purchase
    /// from its store and applies that document for the app user. A source whose purchases carry their
    /// own proof (the App Store's signed transactions) reads and verifies them instead.
    func read(_ claim: LedgerClaim) throws(LedgerRefusal) -> LedgerReading

    /// The snapshot of `threads` (this source's, owned by one customer) evaluated at `instant`, through
    /// the adapter's mapping. The ledger sets the provider, the app user id and the verification.
    func snapshot(of threads: [LedgerThread], at instant: Date) throws(LedgerRefusal) -> EntitlementSnapshot

    /// Whether `thread` held an auto-renewable subscription active at `instant` (what
    /// `transferIfNoActiveSubscriptions` asks). By default: an active entitlement with an expiry.
    func holdsActiveSubscription(_ thread: LedgerThread, at instant: Date) -> Bool
}

extension LedgerSource {
    public func read(_ claim: LedgerClaim) throws(LedgerRefusal) -> LedgerReading {
        LedgerReading(
            notificationId: nil, environment: nil,
            effect: .refreshNeeded(purchaseToken: claim.token, productId: claim.productId))
    }

    public func holdsActiveSubscription(_ thread: LedgerThread, at instant: Date) -> Bool {
        guard let snapshot = try? snapshot(of: [thread], at: instant) else { return false }
        return snapshot.active.contains { $0.expirationDate != nil }
    }
}

/// What a source read from one input.
public struct LedgerReading: Sendable, Hashable {
    /// What the input states.
    public enum Effect: Sendable, Hashable {
        /// Statements to keep.
        case records([LedgerRecord])
        /// The input says only that a purchase changed: it must be fetched.
        case refreshNeeded(purchaseToken: String, productId: String?)
        /// The input changes nothing, and why (a test notification, a consumption request).
        case noChange(reason: String)
    }

    /// The notification's own id (Apple `notificationUUID`, Pub/Sub `messageId`, Stripe event id), seen
    /// once; `nil` for a document.
    public var notificationId: String?
    /// The environment the input says it is from as a whole; `nil` when it does not say.
    public var environment: Environment?
    /// What it states.
    public var effect: Effect

    /// A reading.
    public init(notificationId: String?, environment: Environment?, effect: Effect) {
        self.notificationId = notificationId
        self.environment = environment
        self.effect = effect
    }

    /// Every environment the reading names: its own and its records'.
    var environments: [Environment] {
        var named = environment.map { [$0] } ?? []
        if case .records(let records) = effect { named += records.compactMap(\.environment) }
        return named
    }
}
