import Foundation

/// A backend the runtime client can ask about a customer: a live HTTP backend, a simulated one in tests,
/// a recorded one.
///
/// Every operation names the app user id it acts for (the client owns identity; a provider keeps no
/// "current user") and answers with that customer's snapshot as the backend sees it now. Snapshots come
/// from the provider's adapter (one decoding path) and carry the backend's ``EntitlementSnapshot/requestDate``
/// when it sends one; the client re-evaluates every answer at its trusted instant, so the instant a
/// provider evaluates at does not decide access.
///
/// Failures are ``EntitlementClientError``s with the client's stable codes (`offline`,
/// `backendUnavailable`, `credentialsRefused`, `badResponse`, `receiptInUseByOtherUser`, …).
public protocol EntitlementProvider: Sendable {
    /// The backend's provider id, written into its snapshots.
    var provider: ProviderID { get }

    /// The name of the part of a shared cache that belongs to this backend and project: the client
    /// keeps its stored app user id, its entries and its floor there (see
    /// ``EntitlementCache/partition(for:)``), so two clients for two backends, or two projects of one,
    /// on one cache directory never share an id or an answer. Two providers with the same namespace
    /// must mean the same customers.
    ///
    /// The default is ``provider``'s raw value (`revenuecat`). The live providers add a digest of their
    /// project key (`revenuecat-` + 16 hex digits), so two projects of one backend are two namespaces.
    var storageNamespace: String { get }

    /// A new anonymous app user id in the backend's own form (RevenueCat `$RCAnonymousID:` + 32
    /// lowercase hex digits, Qonversion `QON_` + 32 lowercase hex digits, Adapty a lower-case UUID).
    func makeAnonymousAppUserId() -> String

    /// Whether `appUserId` has the backend's anonymous form.
    func isAnonymous(_ appUserId: String) -> Bool

    /// The customer's current snapshot (`GET /v1/subscribers/{id}`, Qonversion's user init).
    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot

    /// The customer's current snapshot, given the answer the client keeps for them with its validator:
    /// a backend that can say "unchanged since" (Adapty's response hash) is asked so, and an unchanged
    /// answer is `cached`'s snapshot, not decoded again. The answer carries the validator to keep.
    ///
    /// The default ignores `cached` and answers ``snapshot(for:)`` with no validator.
    func snapshot(for appUserId: String, revalidating cached: ValidatedSnapshot?) async throws(EntitlementClientError)
        -> ValidatedSnapshot

    /// Moves the device from `currentAppUserId` to `newAppUserId`; the backend decides aliasing.
    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult

    /// Posts what the store holds for this device (a restore or a sync) as `appUserId` and answers with
    /// the customer's snapshot afterwards.
    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot

    /// Reports a purchase the store just completed as `appUserId` and answers with the customer's
    /// snapshot afterwards, so the app never shows a stale answer right after a purchase.
    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot

    /// A new stream of "something changed" signals: each element says the backend's answers may differ
    /// from what it last gave (a renewal or refund the store pushed, as StoreKit 2's `Transaction.updates`
    /// does), so an ``EntitlementClient`` fetches the current customer's snapshot again and its
    /// ``EntitlementClient/updates()`` yields the new answer. A signal names no customer: the client asks
    /// for its own.
    ///
    /// Each call makes a new stream for one listener; the listener cancels it (the client does when it
    /// is released), and the provider should then stop feeding it. `nil`, the default: the backend pushes
    /// nothing and answers change only when asked.
    func makeChangeSignals() -> AsyncStream<Void>?

    /// The cache an ``EntitlementClient`` of this provider keeps its customer, entries and floor in, given
    /// the cache the app passed: by default this provider's part of it (``EntitlementCache/partition(for:)``).
    /// A ``MigratingProvider`` answers both of its backends' parts, kept as one through a cut-over.
    ///
    /// A provider that wraps another (a decorator that logs or counts calls) forwards this, with
    /// ``shadowStorageNamespace``, to the provider it wraps, so its clients keep the wrapped provider's cache.
    func clientCache(in cache: any EntitlementCache) -> any EntitlementCache

    /// The namespace of the backend answering in the shadow of this one (``MigratingProvider/shadow``), whose
    /// part of the cache the client keeps the customer in too; `nil`, the default, for a provider alone.
    var shadowStorageNamespace: String? { get }
}

extension EntitlementProvider {
    /// ``provider``'s raw value: one namespace per backend.
    public var storageNamespace: String { provider.rawValue }

    /// ``snapshot(for:)``, with no validator: a backend without conditional reads.
    public func snapshot(for appUserId: String, revalidating cached: ValidatedSnapshot?)
        async throws(EntitlementClientError) -> ValidatedSnapshot
    {
        ValidatedSnapshot(snapshot: try await snapshot(for: appUserId))
    }

    /// `nil`: the backend pushes no changes.
    public func makeChangeSignals() -> AsyncStream<Void>? { nil }

    /// This provider's part of `cache`.
    public func clientCache(in cache: any EntitlementCache) -> any EntitlementCache {
        cache.partition(for: self)
    }

    /// `nil`: no backend answers in this one's shadow.
    public var shadowStorageNamespace: String? { nil }
}

/// The backend's answer to a logIn.
public struct LogInResult: Sendable, Hashable {
    /// The snapshot of the customer the device now reads.
    public let snapshot: EntitlementSnapshot
    /// Whether the backend created a new customer for the id.
    public let created: Bool

    /// Creates a logIn answer.
    public init(snapshot: EntitlementSnapshot, created: Bool) {
        self.snapshot = snapshot
        self.created = created
    }
}

/// What the device's store holds, as a backend receives it: an App Store receipt or signed transaction,
/// a Google Play purchase token, or (in the simulated backend) a store account.
public struct StoreReceipt: Sendable, Hashable {
    /// The store that issued it.
    public let store: Store
    /// The store's proof: a base64 App Store receipt, a StoreKit 2 JWS, a Play purchase token.
    public let token: String

    /// Wraps a store's proof of purchase.
    public init(store: Store, token: String) {
        self.store = store
        self.token = token
    }
}

/// A purchase the store just completed.
public struct StorePurchase: Sendable, Hashable {
    /// The receipt (or token) that proves it.
    public let receipt: StoreReceipt
    /// The product bought.
    public let productId: String

    /// Describes a completed purchase.
    public init(receipt: StoreReceipt, productId: String) {
        self.receipt = receipt
        self.productId = productId
    }
}
