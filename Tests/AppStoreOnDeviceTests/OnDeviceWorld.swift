import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitTesting
import Foundation

/// One phone signed in to the Apple account `apple-1`, its StoreKit simulated over a ``SimulatedStore`` whose
/// JWS are signed with the test chain, an ``AppStoreOnDeviceProvider`` trusting only the test root, and the
/// client. Time moves for the store and the device together.
struct OnDeviceWorld {
    static let bundleId = "com.acme.trails"
    static let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    static let products = [
        ScenarioProduct(
            id: "monthly",
            kind: .autoRenewable(
                period: ISODuration(months: 1), trial: nil, gracePeriod: ISODuration(milliseconds: 3 * 86_400_000)),
            entitlements: ["premium"]),
        ScenarioProduct(id: "maps", kind: .nonConsumable, entitlements: ["maps"]),
    ]
    static let catalog = EntitlementCatalog(products: [
        "monthly": .init(entitlementIds: ["premium"]), "maps": .init(entitlementIds: ["maps"]),
    ])

    let signer: AppStoreTestSigner
    let store: SimulatedStore
    let source: SimulatedTransactionSource
    let clock: ControllableClock
    let provider: AppStoreOnDeviceProvider

    init(identity: AppStoreOnDeviceProvider.IdentityMode = .device) throws {
        signer = try AppStoreTestSigner()
        store = SimulatedStore(products: Self.products, start: Self.start)
        source = SimulatedTransactionSource(
            store: store, storeAccount: "apple-1", bundleId: Self.bundleId, signer: signer)
        clock = ControllableClock(start: Self.start)
        provider = AppStoreOnDeviceProvider(
            source: source, catalog: Self.catalog, rootCertificates: [signer.rootCertificate], bundleId: Self.bundleId,
            identity: identity, deviceClock: clock)
    }

    func launch(appUserId: String? = "alice") async throws -> EntitlementClient {
        try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), appUserId: appUserId, deviceClock: clock,
            monotonicClock: clock)
    }

    /// Moves true time for the store and the device.
    func advance(_ text: String) {
        let duration = ISODuration(text) ?? ISODuration()
        store.advance(by: duration)
        clock.advance(by: duration)
    }

    /// The device buys `productId`; the app reports the purchase's JWS to the client.
    func buy(_ productId: String, on client: EntitlementClient) async throws -> EntitlementSnapshot {
        let jws = try source.buy(productId)
        return try await client.recordPurchase(
            StorePurchase(receipt: StoreReceipt(store: .appStore, token: jws), productId: productId))
    }
}

/// A source that hands over fixed JWS: what a tampered device could send.
struct FixedSource: SignedTransactionSource {
    let transactions: [String]

    func currentEntitlements() async throws(EntitlementClientError) -> [String] { transactions }
    func transactionUpdates() -> AsyncStream<String> { AsyncStream { $0.finish() } }
    func sync() async throws(EntitlementClientError) {}
}
