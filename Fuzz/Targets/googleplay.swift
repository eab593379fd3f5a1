// fuzz-modules: EntitlementKitGooglePlay
// fuzz-seeds: Fixtures/googleplay Fixtures/malformed
import EntitlementKit
import EntitlementKitGooglePlay
import Foundation

/// A catalog that names some fixture products, several entitlements per product, a duration, and leaves
/// the rest unnamed: every path of the catalog step is reachable from the seeds.
let googlePlayCatalog = EntitlementCatalog(products: [
    "acme_pro": .init(entitlementIds: ["pro", "cloud"]),
    "acme_lifetime": .init(entitlementIds: ["pro"]),
    "acme_season": .init(entitlementIds: ["season"], duration: ISODuration("P3M")),
    "acme_remove_ads": .init(entitlementIds: ["no_ads"]),
])

/// Google Play's SubscriptionPurchaseV2, ProductPurchase and the per-customer listing through the adapter,
/// without and with a catalog: the byte path and the tree path give the same snapshot or the same error,
/// and recognising a document never crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGooglePlay(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let document = try? JSONValue.parse(data) { _ = GooglePlayAdapter().recognizes(document) }
    exerciseBothPaths(GooglePlayAdapter(), data)
    exerciseBothPaths(GooglePlayAdapter(catalog: googlePlayCatalog), data)
    return 0
}
