import EntitlementKit

/// Where an app's signed App Store transactions come from on the device: StoreKit 2
/// (``StoreKitTransactionSource`` on Apple's systems), or a simulated store in tests.
///
/// Everything a source hands over is a JWS that ``AppStoreOnDeviceProvider`` verifies before it counts, so a
/// source needs no trust of its own: a tampered source can withhold purchases, never forge them.
public protocol SignedTransactionSource: Sendable {
    /// The JWS of every transaction that entitles the device's Apple account now (StoreKit's
    /// `Transaction.currentEntitlements`, each `jwsRepresentation`). A source may add the JWS of the
    /// subscriptions' renewal infos (`RenewalInfo`), which say whether they renew or are in a billing issue.
    func currentEntitlements() async throws(EntitlementClientError) -> [String]

    /// A new stream of JWS as the store delivers them while the app runs (StoreKit's `Transaction.updates`:
    /// renewals, refunds, purchases made on another device, Ask to Buy approvals). The reader cancels it
    /// when done; the source then stops feeding it.
    func transactionUpdates() -> AsyncStream<String>

    /// Asks the store for the account's latest transactions (StoreKit's `AppStore.sync()`): the
    /// user-initiated restore, which may ask the user to sign in. Throws `offline` without a connection.
    func sync() async throws(EntitlementClientError)
}
