import EntitlementKit
import Foundation

/// The stores' side of a simulation — what Apple and Google know, whichever backend an app uses: true
/// time, the products on sale, and each store account's purchases with their lifecycles (renewals,
/// cancellations, billing issues, refunds).
///
/// Several ``SimulatedBackend``s over one store see the same accounts and receipts, as two real backends
/// see the same Apple receipt: a customer who bought through the old backend restores on the new one in a
/// migration test. The simulated App Store (``SimulatedTransactionSource``) reads it too. Which customer
/// owns a receipt is each backend's own business; the store only knows accounts.
///
/// ```swift
/// let store = SimulatedStore(products: products, start: start)
/// let old = SimulatedBackend(flavour: .revenueCat, store: store)
/// let new = SimulatedBackend(flavour: .adapty, store: store)
/// ```
///
/// A class with a lock rather than an actor: backends read it inside their own operations, and a
/// suspension there would let another call of the same backend interleave with half an operation.
public final class SimulatedStore: @unchecked Sendable {
    // Guards every stored property below.
    private let lock = NSLock()
    private let products: [String: ScenarioProduct]
    private var now: Date
    private var accounts: [String: SimulatedStoreAccount] = [:]
    private var nextTransaction = 1
    private var listeners: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextListener = 0

    /// A store selling `products`, at true time `start`.
    public init(products: [ScenarioProduct] = [], start: Date) {
        self.products = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        now = start
    }

    // MARK: Time

    /// True time.
    public var trueTime: Date {
        lock.withLock { now }
    }

    /// Moves true time forward by `duration` (calendar months clamped); a negative duration is ignored.
    /// Renewals due by then happen, and each account that renewed is announced.
    public func advance(by duration: ISODuration) {
        setTime(duration.added(to: trueTime))
    }

    /// Sets true time; it never moves back. Renewals due by then happen, and are announced.
    public func setTime(_ instant: Date) {
        let renewed: [String] = lock.withLock {
            guard instant > now else { return [] }
            now = instant
            var renewed: [String] = []
            for name in accounts.keys.sorted() {
                guard var account = accounts[name] else { continue }
                let before = account.purchases.map(\.currentTransactionId)
                account.settle(at: now)
                accounts[name] = account
                if account.purchases.map(\.currentTransactionId) != before { renewed.append(name) }
            }
            return renewed
        }
        renewed.forEach(announce)
    }

    // MARK: Store events

    /// A store-side event on the account's latest purchase of `productId`; nothing when the account never
    /// bought it. Announced to the account's listeners.
    public func storeEvent(_ event: StoreEvent, storeAccount: String, productId: String) {
        let applied: Bool = lock.withLock {
            guard var account = accounts[storeAccount], let index = account.latestIndex(of: productId) else {
                return false
            }
            account.purchases[index].apply(event, at: now)
            accounts[storeAccount] = account
            return true
        }
        if applied { announce(storeAccount) }
    }

    /// A new stream of store account names, one each time an account's transactions change (a purchase, a
    /// renewal, a store event): what StoreKit's `Transaction.updates` tells a device signed in to it.
    func accountChanges() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let number = lock.withLock {
            nextListener += 1
            listeners[nextListener] = continuation
            return nextListener
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            lock.withLock { _ = listeners.removeValue(forKey: number) }
        }
        return stream
    }

    private func announce(_ storeAccount: String) {
        let receivers = lock.withLock { Array(listeners.values) }
        for receiver in receivers { receiver.yield(storeAccount) }
    }

    // MARK: What backends ask

    /// The account buys `productId` now. Returns where the purchase is, or `nil` when the store does not
    /// sell the product. Buying an auto-renewable product the receipt still holds active turns auto-renew
    /// back on instead of selling it again.
    func buy(productId: String, storeAccount: String, store: Store) -> SimulatedPurchaseReference? {
        let reference: SimulatedPurchaseReference? = lock.withLock {
            guard let product = products[productId] else { return nil }
            let transactionId = String(format: "%016d", 1_000_000_000 + nextTransaction)
            nextTransaction += 1
            var account = accounts[storeAccount] ?? SimulatedStoreAccount(store: store)
            account.settle(at: now)
            if product.kind.isOnReceipt, let index = account.latestIndex(of: productId),
                account.purchases[index].isActive(at: now)
            {
                account.purchases[index].resubscribe(at: now)
                accounts[storeAccount] = account
                return SimulatedPurchaseReference(storeAccount: storeAccount, index: index)
            }
            let everHeld = account.purchases.contains { $0.productId == productId }
            account.purchases.append(
                SimulatedPurchase(
                    product: product, store: account.store, storeAccount: storeAccount, at: now,
                    transactionId: transactionId, withTrial: product.kind.isOnReceipt && !everHeld))
            accounts[storeAccount] = account
            return SimulatedPurchaseReference(storeAccount: storeAccount, index: account.purchases.count - 1)
        }
        if reference != nil { announce(storeAccount) }
        return reference
    }

    /// Whether the store sells `productId`.
    func sells(_ productId: String) -> Bool {
        products[productId] != nil
    }

    /// The auto-renewable and non-consumable purchases on the account's receipt, settled at true time.
    func receiptPurchases(of storeAccount: String) -> [SimulatedPurchase] {
        settledPurchases(of: storeAccount).filter(\.kind.isOnReceipt)
    }

    /// Every purchase of the account (consumables and non-renewing ones too), settled at true time.
    func settledPurchases(of storeAccount: String) -> [SimulatedPurchase] {
        lock.withLock {
            guard var account = accounts[storeAccount] else { return [] }
            account.settle(at: now)
            accounts[storeAccount] = account
            return account.purchases
        }
    }

    /// The purchase at `reference`, settled at true time.
    func purchase(at reference: SimulatedPurchaseReference) -> SimulatedPurchase? {
        let purchases = settledPurchases(of: reference.storeAccount)
        return purchases.indices.contains(reference.index) ? purchases[reference.index] : nil
    }

    /// Whether the receipt holds an auto-renewable subscription active now.
    func hasActiveSubscription(_ storeAccount: String) -> Bool {
        let instant = trueTime
        return receiptPurchases(of: storeAccount).contains { $0.isActiveSubscription(at: instant) }
    }
}

/// Where one purchase sits in the simulated store: a direct purchase (consumable, non-renewing) is owned by
/// the customer who bought it through this reference.
struct SimulatedPurchaseReference: Sendable, Hashable {
    let storeAccount: String
    let index: Int
}

/// A store account: which store it is at, and its purchases in the order made.
struct SimulatedStoreAccount: Sendable, Hashable {
    var store: Store
    var purchases: [SimulatedPurchase] = []

    /// The latest purchase of `productId`, where lifecycle events land.
    func latestIndex(of productId: String) -> Int? {
        purchases.lastIndex { $0.productId == productId }
    }

    mutating func settle(at instant: Date) {
        for index in purchases.indices { purchases[index].settle(at: instant) }
    }
}
