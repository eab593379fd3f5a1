// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitAppStore
import Foundation

// The module's DocC example, verbatim between the markers.

func appStoreModuleExample(data: Data, unlockPro: () -> Void) throws {
    // doc-example: Adapters/AppStore/EntitlementKitAppStore.docc/EntitlementKitAppStore.md
    let catalog = EntitlementCatalog(products: [
        "com.acme.pro.monthly": .init(entitlementIds: ["pro"]),
        "com.acme.pro.season": .init(entitlementIds: ["pro"], duration: ISODuration("P3M")),
    ])
    let adapter = AppStoreAdapter(catalog: catalog, bundleId: "com.acme.app")
    let snapshot = try adapter.snapshot(from: data, at: .now)
    if snapshot.isActive("pro") { unlockPro() }
    // end doc-example
}
