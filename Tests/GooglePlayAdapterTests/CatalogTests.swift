import EntitlementKit
import EntitlementKitGooglePlay
import Foundation
import TestSupport
import Testing

/// Products → entitlements through the catalog.
@Suite("Google Play with a catalog", .timeLimit(.minutes(5)))
struct CatalogTests {
    @Test("without a catalog every product is its own entitlement")
    func identity() throws {
        let snapshot = try playSnapshot(
            listing(
                subscriptions: [("tok-1", subscription())],
                products: [("acme_remove_ads", "tok-2", productPurchase())]))
        #expect(snapshot.activeEntitlementIds == ["acme_pro", "acme_remove_ads"])
        #expect(snapshot.nonSubscriptionTransactions.isEmpty)
        #expect(GooglePlayAdapter().catalog == .identity)
    }

    @Test("a product can unlock several entitlements; an entitlement takes the product that grants the most")
    func manyToMany() throws {
        let catalog = EntitlementCatalog(products: [
            "acme_pro": .init(entitlementIds: ["pro", "cloud"]),
            "acme_lifetime": .init(entitlementIds: ["pro"]),
        ])
        let document = listing(
            subscriptions: [("tok-1", subscription(items: [lineItem(expiry: "2025-10-01T00:00:00Z")]))],
            products: [("acme_lifetime", "tok-2", productPurchase())])
        let snapshot = try playSnapshot(document, catalog: catalog)
        #expect(snapshot.activeEntitlementIds == ["cloud", "pro"])
        // Lifetime access (no expiry) beats a subscription's; both purchases are the entitlement's transactions.
        #expect(snapshot["pro"]?.productId == "acme_lifetime")
        #expect(snapshot["pro"]?.transactions.count == 2)
        #expect(snapshot["cloud"]?.productId == "acme_pro")
    }

    @Test("active beats inactive, then the later expiry")
    func bestGrantWins() throws {
        let catalog = EntitlementCatalog(products: [
            "acme_monthly": .init(entitlementIds: ["pro"]), "acme_yearly": .init(entitlementIds: ["pro"]),
        ])
        let document = listing(subscriptions: [
            ("tok-1", subscription(items: [lineItem(product: "acme_monthly", expiry: "2025-10-01T00:00:00Z")])),
            (
                "tok-2",
                subscription("ON_HOLD", items: [lineItem(product: "acme_yearly", expiry: "2026-01-01T00:00:00Z")])
            ),
            ("tok-3", subscription(items: [lineItem(product: "acme_yearly", expiry: "2025-12-01T00:00:00Z")])),
        ])
        let pro = try #require(try playSnapshot(document, catalog: catalog)["pro"])
        #expect(pro.isActive)
        #expect(pro.expirationDate == instant("2025-12-01T00:00:00Z"))
        #expect(pro.transactions.map(\.originalTransactionId) == ["tok-1", "tok-2", "tok-3"])
    }

    @Test("a product the catalog does not name unlocks nothing and is still listed")
    func unnamedProducts() throws {
        let catalog = EntitlementCatalog(products: ["acme_pro": .init(entitlementIds: ["pro"])])
        let document = listing(
            subscriptions: [("tok-1", subscription(items: [lineItem(), lineItem(product: "acme_other")]))],
            products: [("acme_sticker", "tok-2", productPurchase())])
        let snapshot = try playSnapshot(document, catalog: catalog)
        #expect(Set(snapshot.entitlements.keys) == ["pro"])
        #expect(
            snapshot.nonSubscriptionTransactions.compactMap(\.productId).sorted() == ["acme_other", "acme_sticker"])
    }
}
