// swift-format-ignore-file
// (the example is kept exactly as the document shows it)
import TestSupport
import EntitlementKit
import EntitlementKitGooglePlay
import Foundation
import Testing

/// The module article's example, verbatim between the markers, run on a real catalog and listing.
@Suite("Google Play documentation example", .timeLimit(.minutes(5)))
struct DocumentationExampleTests {
    func moduleExample(catalogData: Data, listingData: Data, unlockPro: () -> Void) throws {
        // doc-example: Adapters/GooglePlay/EntitlementKitGooglePlay.docc/EntitlementKitGooglePlay.md
        let catalog = try EntitlementCatalog(json: catalogData)
        let snapshot = try GooglePlayAdapter(catalog: catalog).snapshot(from: listingData, at: .now)
        if snapshot["pro"]?.isActive == true { unlockPro() }
        // end doc-example
    }

    @Test("the module article's example unlocks pro for a customer with an active subscription")
    func runsTheExample() throws {
        let catalogData = Data(#"{"products": {"acme_pro": {"entitlements": ["pro"]}}}"#.utf8)
        let listingData = json(
            listing(subscriptions: [("tok-1", subscription(items: [lineItem(expiry: "2999-01-01T00:00:00Z")]))]))
        var unlocked = false
        try moduleExample(catalogData: catalogData, listingData: listingData) { unlocked = true }
        #expect(unlocked)
    }
}
