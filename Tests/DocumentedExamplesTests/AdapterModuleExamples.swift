// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation

// The adapter modules' DocC examples, verbatim between the markers.

func revenueCatModuleExamples(data: Data, unlockPremium: () -> Void) throws {
    // doc-example: Adapters/RevenueCat/EntitlementKitRevenueCat.docc/EntitlementKitRevenueCat.md
    let snapshot = try RevenueCatAdapter().snapshot(from: data, at: .now)
    if snapshot["premium"]?.isActive == true { unlockPremium() }
    // end doc-example

    // doc-example: Adapters/RevenueCat/EntitlementKitRevenueCat.docc/EntitlementKitRevenueCat.md
    let info = try RevenueCatAdapter().customerInfo(from: data, at: .now)
    let products = info.activeSubscriptions                    // ["gold:monthly"]
    let renewsOn = info.expirationDate(forProduct: "gold:monthly")
    // end doc-example
    _ = (products, renewsOn)
}

func qonversionModuleExample(responseBody: Data, unlockPremium: () -> Void) throws {
    // doc-example: Adapters/Qonversion/EntitlementKitQonversion.docc/EntitlementKitQonversion.md
    let snapshot = try QonversionAdapter().snapshot(from: responseBody, at: .now)
    if snapshot["premium"]?.isActive == true {
        unlockPremium()
    }
    // end doc-example
}
