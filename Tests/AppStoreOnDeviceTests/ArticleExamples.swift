// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitAppStore
import Foundation

// The "Using StoreKit 2 without a vendor" article's examples, verbatim between the markers. `source` stands
// for `StoreKitTransactionSource()`, which Linux (where CI runs) does not have.

func onDeviceSetUpExample(
    source: some SignedTransactionSource, catalog: EntitlementCatalog, cache: any EntitlementCache, unlockPro: () -> Void
) async throws {
    // doc-example: Adapters/AppStore/EntitlementKitAppStore.docc/UsingStoreKit2WithoutAVendor.md
    let provider = AppStoreOnDeviceProvider(
        source: source,
        catalog: catalog,
        bundleId: "com.acme.trails")
    let client = try await EntitlementClient(provider: provider, cache: cache)
    let check = await client.checkEntitlements()
    if check.isActive("pro") { unlockPro() }
    // end doc-example
}

func onDeviceCatalogExample() -> EntitlementCatalog {
    // doc-example: Adapters/AppStore/EntitlementKitAppStore.docc/UsingStoreKit2WithoutAVendor.md
    let catalog = EntitlementCatalog(products: [
        "com.acme.trails.pro.monthly": .init(entitlementIds: ["pro"]),
        "com.acme.trails.pro.yearly": .init(entitlementIds: ["pro"]),
        "com.acme.trails.season": .init(entitlementIds: ["pro"], duration: ISODuration("P3M")),
    ])
    // end doc-example
    return catalog
}

func onDevicePurchaseExample(client: EntitlementClient, jws: String, productId: String, unlockPro: () -> Void)
    async throws
{
    // The client calls of the purchase example (StoreKit's `product.purchase()` gives `jws`).
    let receipt = StoreReceipt(store: .appStore, token: jws)
    let snapshot = try await client.recordPurchase(StorePurchase(receipt: receipt, productId: productId))
    if snapshot.isActive("pro") { unlockPro() }
}

func onDeviceRestoreExample(client: EntitlementClient) async throws {
    // doc-example: Adapters/AppStore/EntitlementKitAppStore.docc/UsingStoreKit2WithoutAVendor.md
    let restored = try await client.restorePurchases(StoreReceipt(store: .appStore, token: ""))
    // end doc-example
    _ = restored
}

func onDeviceAccountsExample(source: some SignedTransactionSource, catalog: EntitlementCatalog, token: UUID) async {
    // doc-example: Adapters/AppStore/EntitlementKitAppStore.docc/UsingStoreKit2WithoutAVendor.md
    let accounts = AppStoreOnDeviceProvider(source: source, catalog: catalog, identity: .byAppAccountToken)
    await accounts.register(appAccountToken: token, for: "alice")
    // end doc-example
}
