import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitGooglePlay
import EntitlementKitQonversion
import EntitlementKitRevenueCat

/// The vendor formats the tool reads, besides the unified form, in the order `--from` lists them.
/// The one place to add a backend.
let builtInAdapters: [any EntitlementAdapter] = [
    RevenueCatAdapter(), QonversionAdapter(), AdaptyAdapter(), GooglePlayAdapter(),
]
