import EntitlementKit
import EntitlementKitGooglePlay
import Foundation
import TestSupport
import Testing

/// `isActive`: a line item grants while its purchase is active, in grace period or canceled **and** the
/// instant is at or before its `expiryTime`; every other state grants nothing; a one-time product grants
/// while purchased, not consumed and not fully refunded.
@Suite("Google Play access rule", .timeLimit(.minutes(5)))
struct ActivityRuleTests {
    @Test(
        "the granting states grant until the expiry, inclusive",
        arguments: ["ACTIVE", "IN_GRACE_PERIOD", "CANCELED"])
    func grantingStates(_ state: String) throws {
        let document = subscription(state, items: [lineItem(expiry: "2025-09-15T10:00:00.250Z")])
        #expect(try playSnapshot(document, at: instant("2025-09-15T10:00:00.250Z")).isActive("acme_pro"))
        #expect(try !playSnapshot(document, at: instant("2025-09-15T10:00:00.251Z")).isActive("acme_pro"))
    }

    @Test(
        "every other state grants nothing, whatever the expiry says",
        arguments: ["ON_HOLD", "PAUSED", "EXPIRED", "PENDING", "PENDING_PURCHASE_CANCELED", "UNSPECIFIED", "SUSPENDED"])
    func otherStates(_ state: String) throws {
        let document = subscription(state, items: [lineItem(expiry: "2026-01-01T00:00:00Z")])
        let snapshot = try playSnapshot(document)
        let entitlement = try #require(snapshot["acme_pro"])
        #expect(!entitlement.isActive)
        #expect(snapshot.activeEntitlementIds.isEmpty)
        // Re-judged earlier, still nothing: the state, not the date, decided.
        #expect(!entitlement.evaluated(at: instant("2025-01-01T00:00:00Z")).isActive)
    }

    @Test("a pending subscription without start or expiry is listed, inactive")
    func pendingWithoutDates() throws {
        let document = subscription("PENDING", start: nil, items: [lineItem(expiry: nil, order: nil)])
        let entitlement = try #require(try playSnapshot(document)["acme_pro"])
        #expect(!entitlement.isActive)
        #expect(entitlement.expirationDate == nil)
        #expect(entitlement.latestPurchaseDate == nil)
    }

    @Test("each line item is judged by its own expiry")
    func lineItemsSeparately() throws {
        let document = subscription(items: [
            lineItem(product: "acme_pro", expiry: "2025-10-01T00:00:00Z"),
            lineItem(product: "acme_storage_addon", expiry: "2025-09-01T00:00:00Z"),
        ])
        let snapshot = try playSnapshot(document)
        #expect(snapshot.activeEntitlementIds == ["acme_pro"])
        #expect(snapshot["acme_storage_addon"]?.expirationDate == instant("2025-09-01T00:00:00Z"))
    }

    @Test("a product grants while purchased and not consumed")
    func productStates() throws {
        func active(_ state: Int, _ consumption: Int, extra: [String: Any] = [:]) throws -> Bool {
            let document = listing(products: [
                ("acme_remove_ads", "tok-1", productPurchase(state: state, consumption: consumption, extra: extra))
            ])
            return try playSnapshot(document).isActive("acme_remove_ads")
        }
        #expect(try active(0, 0))
        #expect(try !active(1, 0))  // canceled
        #expect(try !active(2, 0))  // pending
        #expect(try !active(7, 0))  // unknown state
        #expect(try !active(0, 5))  // unknown consumption state
        #expect(try !active(0, 0, extra: ["quantity": 1, "refundableQuantity": 0]))  // refunded
        #expect(try !active(0, 0, extra: ["refundableQuantity": 0]))  // refunded, quantity absent = 1
        #expect(try active(0, 0, extra: ["quantity": 3, "refundableQuantity": 1]))  // partly refunded
        #expect(try active(0, 0, extra: ["quantity": 2, "refundableQuantity": 2]))
    }

    @Test("a consumed product is a consumable: listed, never an entitlement")
    func consumedProduct() throws {
        let snapshot = try playSnapshot(listing(products: [("acme_gems", "tok-g", productPurchase(consumption: 1))]))
        #expect(snapshot.entitlements.isEmpty)
        #expect(snapshot.nonSubscriptionTransactions.map(\.type) == [.consumablePurchase])
        #expect(snapshot.nonSubscriptionTransactions.first?.originalTransactionId == "tok-g")
    }

    @Test("a product has no expiry unless the catalog gives it a duration")
    func productDuration() throws {
        let document = listing(products: [("acme_season", "tok-s", productPurchase(time: "1752000000000"))])
        #expect(try playSnapshot(document)["acme_season"]?.expirationDate == nil)
        let catalog = EntitlementCatalog(products: [
            "acme_season": .init(entitlementIds: ["season"], duration: ISODuration("P3M"))
        ])
        let season = try #require(try playSnapshot(document, catalog: catalog)["season"])
        #expect(season.expirationDate == instant("2025-10-08T18:40:00Z"))
        #expect(season.isActive)
        #expect(!season.evaluated(at: instant("2025-10-08T18:40:00.001Z")).isActive)
    }
}
