import EntitlementKit
import EntitlementKitAppStore
import Foundation

/// A device's StoreKit 2 in a simulation: the simulated App Store's view of one store account, as JWS
/// signed with the test chain (``AppStoreTestSigner``), for ``AppStoreOnDeviceProvider``.
///
/// - ``currentEntitlements()``: what `Transaction.currentEntitlements` lists (see the store's rules: each
///   non-consumable, each subscription still giving access, the latest non-renewing purchase of each
///   product; nothing refunded), each subscription's renewal info beside it, each signed when it last
///   changed (StoreKit keeps a JWS until the App Store changes the transaction).
/// - ``transactionUpdates()``: each transaction that changed (a purchase, a renewal, a store event) as it
///   changes, as `Transaction.updates` delivers them.
/// - ``buy(_:)``: the account buys a product; the answer is the purchase's JWS, to report to the provider.
/// - The device's network: while ``isOnline`` is false every call fails with `offline`. Real StoreKit
///   answers from its own copy offline; here the client's cache plays that part, so a story's offline
///   steps mean the same for every provider. ``callCount`` counts every call, offline ones too.
public final class SimulatedTransactionSource: SignedTransactionSource, @unchecked Sendable {
    /// The store it reads.
    public let store: SimulatedStore
    /// The Apple account the device is signed in to.
    public let storeAccount: String
    /// The bundle id written into every transaction.
    public let bundleId: String
    /// Whether ``transactionUpdates()`` delivers changes (else its streams stay silent).
    public let deliversUpdates: Bool
    private let signer: AppStoreTestSigner
    // Guards `online`, `syncs` and `calls`.
    private let lock = NSLock()
    private var online = true
    private var syncs = 0
    private var calls = 0

    /// The App Store on a device signed in to `storeAccount`.
    ///
    /// - Parameter deliversUpdates: whether the store's changes are pushed (`Transaction.updates`); a test
    ///   that counts updates step by step (the scenario runner) turns it off, since a push is answered in
    ///   the background at a moment no step controls.
    public init(
        store: SimulatedStore, storeAccount: String, bundleId: String, signer: AppStoreTestSigner,
        deliversUpdates: Bool = true
    ) {
        self.store = store
        self.storeAccount = storeAccount
        self.bundleId = bundleId
        self.signer = signer
        self.deliversUpdates = deliversUpdates
    }

    /// Whether the device is on the network.
    public var isOnline: Bool {
        get { lock.withLock { online } }
        set { lock.withLock { online = newValue } }
    }

    /// How many times ``sync()`` reached the store.
    public var syncCount: Int {
        lock.withLock { syncs }
    }

    /// How many calls the device made (current entitlements, sync, buy), offline ones too.
    public var callCount: Int {
        lock.withLock { calls }
    }

    public func currentEntitlements() async throws(EntitlementClientError) -> [String] {
        try requireOnline()
        let instant = store.trueTime
        return SimulatedAppStorePayloads.currentEntitlements(
            store.settledPurchases(of: storeAccount), bundleId: bundleId, at: instant
        ).map(signer.sign)
    }

    public func transactionUpdates() -> AsyncStream<String> {
        guard deliversUpdates else { return AsyncStream { _ in } }
        let changes = store.accountChanges()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let account = storeAccount
        let before = transactionsByChain()
        let relay = Task { [store, bundleId, signer] in
            var known = before
            for await changed in changes where changed == account {
                for purchase in store.settledPurchases(of: account) {
                    let payload = SimulatedAppStorePayloads.transaction(purchase, bundleId: bundleId)
                    guard known[purchase.transactionId] != payload else { continue }
                    known[purchase.transactionId] = payload
                    continuation.yield(signer.sign(payload))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return stream
    }

    /// The store is the truth in a simulation: a sync only needs the network.
    public func sync() async throws(EntitlementClientError) {
        try requireOnline()
        lock.withLock { syncs += 1 }
    }

    /// The account buys `productId` now; returns the purchase's JWS (what `Product.purchase()` gives the app
    /// as `jwsRepresentation`). Throws `offline` off the network and `badResponse` for a product the store
    /// does not sell.
    public func buy(_ productId: String) throws(EntitlementClientError) -> String {
        try requireOnline()
        guard let reference = store.buy(productId: productId, storeAccount: storeAccount, store: .appStore),
            let purchase = store.purchase(at: reference)
        else { throw EntitlementClientError(.badResponse, "the store does not sell \(productId)") }
        return signer.sign(SimulatedAppStorePayloads.transaction(purchase, bundleId: bundleId))
    }

    /// What an app restoring through a server of its own posts: the signed current transaction of every
    /// purchase on the account's receipt (auto-renewable and non-consumable, lapsed and refunded ones too)
    /// and each subscription's renewal info. Consumables and non-renewing purchases are left out: as at the
    /// simulated backend, they belong to whoever bought them and are not restored from the store account.
    public func receipt() throws(EntitlementClientError) -> [String] {
        try requireOnline()
        var payloads: [JSONValue] = []
        for purchase in store.receiptPurchases(of: storeAccount) {
            payloads.append(SimulatedAppStorePayloads.transaction(purchase, bundleId: bundleId))
            if case .autoRenewable = purchase.kind { payloads.append(SimulatedAppStorePayloads.renewalInfo(purchase)) }
        }
        return payloads.map(signer.sign)
    }

    private func requireOnline() throws(EntitlementClientError) {
        lock.withLock { calls += 1 }
        guard isOnline else { throw EntitlementClientError(.offline, "the device is off the network") }
    }

    /// Each purchase's current transaction, by its original transaction id: what tells a changed one.
    private func transactionsByChain() -> [String: JSONValue] {
        var known: [String: JSONValue] = [:]
        for purchase in store.settledPurchases(of: storeAccount) {
            known[purchase.transactionId] = SimulatedAppStorePayloads.transaction(purchase, bundleId: bundleId)
        }
        return known
    }
}
