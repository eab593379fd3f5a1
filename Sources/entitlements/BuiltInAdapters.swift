import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import EntitlementKitStripe

/// The vendor formats the tool reads, besides the unified form, in the order `--from` lists them.
/// The one place to add a backend.
let builtInAdapters: [any EntitlementAdapter] = [
    RevenueCatAdapter(), QonversionAdapter(), AdaptyAdapter(), AppStoreAdapter(), GooglePlayAdapter(),
    StripeAdapter(),
]

/// ``builtInAdapters`` with the stores' adapters configured by the command's options (`--catalog`, the
/// App Store's verification options, Stripe's `--app-user-id-key`).
func builtInAdapters(configuredBy options: StoreOptions) -> [any EntitlementAdapter] {
    builtInAdapters.map { adapter in
        switch adapter {
        case is GooglePlayAdapter:
            GooglePlayAdapter(catalog: options.catalog)
        case is StripeAdapter:
            StripeAdapter(
                configuration: .init(catalog: options.catalog, appUserIdMetadataKey: options.appUserIdMetadataKey))
        case is AppStoreAdapter:
            AppStoreAdapter(
                catalog: options.catalog, allowsUnverifiedTestData: options.allowsUnverifiedTestData,
                bundleId: options.bundleId, rootCertificates: options.rootCertificates)
        default:
            adapter
        }
    }
}
