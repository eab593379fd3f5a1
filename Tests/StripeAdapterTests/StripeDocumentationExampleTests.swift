// swift-format-ignore-file
// (the example is kept exactly as the document shows it)
import TestSupport
import EntitlementKit
import EntitlementKitStripe
import Foundation
import Testing

/// The module article's example, verbatim between the markers, run on a real catalog and subscription.
@Suite("Stripe documentation example", .timeLimit(.minutes(5)))
struct StripeDocumentationExampleTests {
    func moduleExample(catalogData: Data, customerData: Data, unlockPro: () -> Void) throws {
        // doc-example: Adapters/Stripe/EntitlementKitStripe.docc/EntitlementKitStripe.md
        let catalog = try EntitlementCatalog(json: catalogData)
        let adapter = StripeAdapter(configuration: .init(catalog: catalog))
        let snapshot = try adapter.snapshot(from: customerData, at: .now)
        if snapshot["pro"]?.isActive == true { unlockPro() }
        // end doc-example
    }

    @Test("the module article's example unlocks pro for a customer with an active subscription")
    func runsTheExample() throws {
        let catalogData = Data(#"{"products": {"price_pro": {"entitlements": ["pro"]}}}"#.utf8)
        let item = subscriptionItem(periodEnd: "2999-01-01T00:00:00Z")
        var unlocked = false
        try moduleExample(catalogData: catalogData, customerData: json(subscription(items: [item]))) { unlocked = true }
        #expect(unlocked)
    }
}
