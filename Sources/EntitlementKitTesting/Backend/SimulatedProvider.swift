import EntitlementKit
import Foundation

/// One device's connection to a ``SimulatedBackend``: the `EntitlementProvider` the runtime client is
/// given in tests. Receipts are store accounts: `StoreReceipt(store:token:)` with the account as token.
public struct SimulatedProvider: EntitlementProvider {
    /// The backend it talks to.
    public let backend: SimulatedBackend
    /// The device whose network state applies.
    public let device: String

    /// A provider for `device` on `backend`.
    public init(backend: SimulatedBackend, device: String) {
        self.backend = backend
        self.device = device
    }

    /// The backend's flavour (`revenuecat`, `qonversion`, `adapty`).
    public var provider: ProviderID { backend.flavour }

    /// A new anonymous id in the flavour's form, from the backend's seeded generator.
    public func makeAnonymousAppUserId() -> String {
        backend.seededAnonymousAppUserId()
    }

    /// Whether `appUserId` has a backend's generated anonymous form.
    public func isAnonymous(_ appUserId: String) -> Bool {
        isSimulatedAnonymousId(appUserId, flavour: backend.flavour)
    }

    /// The customer's snapshot now.
    public func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await backend.snapshot(for: appUserId, device: device)
    }

    /// logIn by the backend's alias table.
    public func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try await backend.logIn(from: currentAppUserId, to: newAppUserId, device: device)
    }

    /// Posts the store account's receipt as `appUserId`.
    public func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await backend.post(storeAccount: receipt.token, store: receipt.store, as: appUserId, device: device)
    }

    /// The store account buys `purchase.productId` now, as `appUserId`.
    public func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await backend.purchase(
            productId: purchase.productId, storeAccount: purchase.receipt.token, store: purchase.receipt.store,
            as: appUserId, device: device)
    }
}
