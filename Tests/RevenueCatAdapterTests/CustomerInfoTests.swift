import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// The customer-level answers: product keys (`product:baseplan`), activity, purchase and expiry dates.
@Suite("Customer info", .timeLimit(.minutes(5)))
struct CustomerInfoTests {
    /// An App Store monthly (active), a Google base-plan subscription (active), an expired yearly, a
    /// subscription without expiry, and two one-time products (one with an empty list).
    static func mixedCustomer() -> SubscriberDocument {
        var document = SubscriberDocument.monthlyPro()
        document.subscriptions["gold"] = SubscriberDocument.subscriptionMembers([
            "\"store\": \"play_store\"", "\"product_plan_identifier\": \"monthly\"",
            "\"purchase_date\": \"2025-09-08T11:00:00Z\"", "\"expires_date\": \"2025-10-08T11:00:00Z\"",
        ])
        document.subscriptions["com.acme.pro.yearly"] = SubscriberDocument.subscriptionMembers([
            "\"purchase_date\": \"2024-01-20T18:22:40Z\"", "\"expires_date\": \"2025-01-20T18:22:40Z\"",
        ])
        document.subscriptions["rc_promo_pro_lifetime"] = SubscriberDocument.subscriptionMembers([
            "\"store\": \"promotional\"", "\"purchase_date\": \"2025-02-01T00:00:00Z\"", "\"expires_date\": null",
        ])
        document.nonSubscriptions["com.acme.lifetime"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-05-18T14:03:09Z", transactionId: "1000000234567890"),
            SubscriberDocument.oneTimeMembers(date: "2025-07-01T09:00:00Z", transactionId: "1000000234567891"),
        ]
        document.nonSubscriptions["com.acme.tip"] = []
        return document
    }

    @Test("active subscriptions: keyed with the base plan, null expiry counts, expired and one-time excluded")
    func activeSubscriptions() throws {
        let info = try Self.mixedCustomer().customerInfo()
        #expect(info.activeSubscriptions == ["com.acme.pro.monthly", "gold:monthly", "rc_promo_pro_lifetime"])
    }

    @Test("active subscriptions use the inclusive rule at the evaluation instant")
    func activeSubscriptionsBoundary() throws {
        let document = SubscriberDocument.monthlyPro()
        #expect(try document.customerInfo(at: "2025-10-03T12:00:05Z").activeSubscriptions == ["com.acme.pro.monthly"])
        #expect(try document.customerInfo(at: "2025-10-03T12:00:05.001Z").activeSubscriptions.isEmpty)
    }

    @Test("all purchased product ids: every subscription key and every product bought once")
    func allPurchasedProductIds() throws {
        let info = try Self.mixedCustomer().customerInfo()
        #expect(
            info.allPurchasedProductIds == [
                "com.acme.pro.monthly", "gold:monthly", "com.acme.pro.yearly", "rc_promo_pro_lifetime",
                "com.acme.lifetime",
            ])
    }

    @Test("latest expiration date: the furthest subscription expiry, one-time purchases ignored")
    func latestExpirationDate() throws {
        #expect(try Self.mixedCustomer().customerInfo().latestExpirationDate == instant("2025-10-08T11:00:00Z"))
        var oneTimeOnly = SubscriberDocument()
        oneTimeOnly.nonSubscriptions["com.acme.lifetime"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-05-18T14:03:09Z", transactionId: "t")
        ]
        #expect(try oneTimeOnly.customerInfo().latestExpirationDate == nil)
    }

    @Test("expiration date for a product needs the base-plan key for Google purchases")
    func expirationDateForProduct() throws {
        let info = try Self.mixedCustomer().customerInfo()
        #expect(info.expirationDate(forProduct: "gold:monthly") == instant("2025-10-08T11:00:00Z"))
        #expect(info.expirationDate(forProduct: "gold") == nil)
        #expect(info.expirationDate(forProduct: "com.acme.pro.monthly") == instant("2025-10-03T12:00:05Z"))
        #expect(info.expirationDate(forProduct: "rc_promo_pro_lifetime") == nil)
        #expect(info.expirationDate(forProduct: "com.acme.lifetime") == nil)
    }

    @Test("purchase date for a product: subscriptions by key, one-time products by their last purchase")
    func purchaseDateForProduct() throws {
        let info = try Self.mixedCustomer().customerInfo()
        #expect(info.purchaseDate(forProduct: "gold:monthly") == instant("2025-09-08T11:00:00Z"))
        #expect(info.purchaseDate(forProduct: "gold") == nil)
        #expect(info.purchaseDate(forProduct: "com.acme.pro.monthly") == instant("2025-09-03T12:00:05Z"))
        #expect(info.purchaseDate(forProduct: "com.acme.lifetime") == instant("2025-07-01T09:00:00Z"))
        #expect(info.purchaseDate(forProduct: "com.acme.tip") == nil)
    }

    @Test("a key collision: the newer purchase date wins")
    func collisionNewerWins() throws {
        var document = SubscriberDocument()
        document.subscriptions["pro"] = SubscriberDocument.subscriptionMembers([
            "\"product_plan_identifier\": \"monthly\"", "\"purchase_date\": \"2025-09-01T00:00:00Z\"",
        ])
        document.subscriptions["pro:monthly"] = SubscriberDocument.subscriptionMembers([
            "\"purchase_date\": \"2025-09-02T00:00:00Z\""
        ])
        let info = try document.customerInfo()
        #expect(info.purchaseDate(forProduct: "pro:monthly") == instant("2025-09-02T00:00:00Z"))
        #expect(info.purchaseDate(forProduct: "pro") == nil)
    }

    @Test("a key collision with equal dates: the purchase whose own id is the key wins")
    func collisionRawKeyWins() throws {
        var document = SubscriberDocument()
        document.subscriptions["pro"] = SubscriberDocument.subscriptionMembers([
            "\"product_plan_identifier\": \"monthly\"", "\"expires_date\": \"2025-10-01T00:00:00Z\"",
            "\"purchase_date\": \"2025-09-01T00:00:00Z\"",
        ])
        document.subscriptions["pro:monthly"] = SubscriberDocument.subscriptionMembers([
            "\"expires_date\": \"2025-10-01T00:00:00Z\"", "\"purchase_date\": \"2025-09-01T00:00:00Z\"",
            "\"store\": \"stripe\"",
        ])
        let info = try document.customerInfo()
        #expect(info.purchaseDate(forProduct: "pro:monthly") == instant("2025-09-01T00:00:00Z"))
        #expect(info.expirationDate(forProduct: "pro:monthly") == instant("2025-10-01T00:00:00Z"))
        #expect(info.activeSubscriptions == ["pro:monthly"])
    }

    @Test("a key collision between a subscription and a one-time product: the later purchase wins")
    func collisionWithOneTimeProduct() throws {
        var document = SubscriberDocument()
        document.subscriptions["pro"] = SubscriberDocument.subscriptionMembers([
            "\"product_plan_identifier\": \"monthly\"", "\"purchase_date\": \"2025-09-01T00:00:00Z\"",
        ])
        document.nonSubscriptions["pro:monthly"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-09-05T00:00:00Z", transactionId: "t")
        ]
        #expect(
            try document.customerInfo().purchaseDate(forProduct: "pro:monthly") == instant("2025-09-05T00:00:00Z"))
    }

    @Test("expiry collisions prefer a date over none, then the later date")
    func expiryCollision() throws {
        var document = SubscriberDocument()
        document.subscriptions["pro"] = SubscriberDocument.subscriptionMembers([
            "\"product_plan_identifier\": \"monthly\"", "\"expires_date\": null",
        ])
        document.subscriptions["pro:monthly"] = SubscriberDocument.subscriptionMembers([
            "\"expires_date\": \"2025-01-01T00:00:00Z\""
        ])
        let info = try document.customerInfo()
        #expect(info.expirationDate(forProduct: "pro:monthly") == instant("2025-01-01T00:00:00Z"))
        #expect(
            info.activeSubscriptions.isEmpty, "the dated, expired purchase decides; no expiry does not win a collision")
    }

    @Test("collision resolution does not depend on document order")
    func collisionIsDeterministic() throws {
        // Neither key is the product's own id and dates tie: the smaller product id wins.
        var document = SubscriberDocument()
        document.subscriptions["a"] = SubscriberDocument.subscriptionMembers([
            "\"product_plan_identifier\": \"b:c\"", "\"purchase_date\": \"2025-09-01T00:00:00Z\"",
            "\"expires_date\": \"2025-10-01T00:00:00Z\"",
        ])
        document.subscriptions["a:b"] = SubscriberDocument.subscriptionMembers([
            "\"product_plan_identifier\": \"c\"", "\"purchase_date\": \"2025-09-01T00:00:00Z\"",
            "\"expires_date\": \"2025-11-01T00:00:00Z\"",
        ])
        let info = try document.customerInfo()
        #expect(
            info.expirationDate(forProduct: "a:b:c") == instant("2025-11-01T00:00:00Z"),
            "the later expiry wins first")
        #expect(info.purchaseDate(forProduct: "a:b:c") == instant("2025-09-01T00:00:00Z"))
    }

    @Test("customer info carries the same snapshot as snapshot(from:at:)")
    func carriesSnapshot() throws {
        let document = Self.mixedCustomer()
        let info = try document.customerInfo()
        #expect(info.snapshot == (try document.snapshot()))
        #expect(info.evaluatedAt == instant("2025-09-15T10:00:00Z"))
    }
}
