import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// The entitlement ↔ purchase join: subscriptions, else the last one-time purchase; a one-time
/// purchase wins a key collision; bare product ids; orphans left out.
@Suite("Entitlement ↔ purchase join", .timeLimit(.minutes(5)))
struct JoinTests {
    @Test("an entitlement joins the subscription its product_identifier names")
    func joinsSubscription() throws {
        let snapshot = try SubscriberDocument.monthlyPro().snapshot()
        let pro = try #require(snapshot["pro"])
        #expect(pro.productId == "com.acme.pro.monthly")
        #expect(pro.store == .appStore)
        #expect(pro.originalPurchaseDate == instant("2025-04-03T12:00:05Z"))
        #expect(pro.transactions.map(\.transactionId) == ["1000000123456789"])
    }

    @Test("a one-time product joins through the last element of its list")
    func joinsLastOneTimePurchase() throws {
        var document = SubscriberDocument()
        document.nonSubscriptions["com.acme.lifetime"] = [
            SubscriberDocument.oneTimeMembers(
                date: "2025-02-01T10:00:00Z", transactionId: "1000000000000001", ["\"store\": \"play_store\""]),
            SubscriberDocument.oneTimeMembers(date: "2025-05-01T10:00:00Z", transactionId: "1000000000000002"),
        ]
        document.entitlements["lifetime"] = SubscriberDocument.entitlementMembers(
            product: "com.acme.lifetime", ["\"expires_date\": null"])
        let lifetime = try #require(try document.snapshot()["lifetime"])
        #expect(lifetime.store == .appStore)
        #expect(lifetime.originalPurchaseDate == instant("2025-05-01T10:00:00Z"))
        #expect(lifetime.transactions.map(\.transactionId) == ["1000000000000002"])
        #expect(lifetime.transactions.map(\.type) == [.unknown], "RevenueCat does not say whether it was consumable")
    }

    @Test("nonSubscriptionTransactions lists every one-time purchase, those an entitlement joined included")
    func oneTimePurchaseListIncludesJoinedPurchases() throws {
        var document = SubscriberDocument()
        document.nonSubscriptions["com.acme.lifetime"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-02-01T10:00:00Z", transactionId: "lifetime-1"),
            SubscriberDocument.oneTimeMembers(date: "2025-05-01T10:00:00Z", transactionId: "lifetime-2"),
        ]
        document.nonSubscriptions["com.acme.credits"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-03-01T10:00:00Z", transactionId: "credits-1")
        ]
        document.entitlements["lifetime"] = SubscriberDocument.entitlementMembers(
            product: "com.acme.lifetime", ["\"expires_date\": null"])
        let snapshot = try document.snapshot()
        // The joined purchase is the entitlement's transaction and stays in the list; so does the earlier
        // purchase of the same product, which no entitlement shows.
        #expect(snapshot["lifetime"]?.transactions.map(\.transactionId) == ["lifetime-2"])
        #expect(snapshot.nonSubscriptionTransactions.map(\.transactionId) == ["lifetime-1", "credits-1", "lifetime-2"])
        #expect(snapshot.nonSubscriptionTransactions.last == snapshot["lifetime"]?.transactions.last)
    }

    @Test("a one-time purchase wins when a subscription has the same product id")
    func oneTimePurchaseWinsCollision() throws {
        var document = SubscriberDocument.monthlyPro(subscription: ["\"period_type\": \"trial\""])
        document.nonSubscriptions["com.acme.pro.monthly"] = [
            SubscriberDocument.oneTimeMembers(
                date: "2025-08-20T12:00:00Z", transactionId: "pi_3PqR8sT2uV4wX6yZ", ["\"store\": \"stripe\""])
        ]
        let pro = try #require(try document.snapshot()["pro"])
        #expect(pro.store == .stripe)
        #expect(pro.periodType == .normal)
        #expect(pro.renewState == .nonRenewable)
        #expect(pro.trialStartDate == nil)
        #expect(pro.transactions.map(\.transactionId) == ["pi_3PqR8sT2uV4wX6yZ"])
    }

    @Test("an empty one-time list does not hide a subscription of the same id")
    func emptyOneTimeListDoesNotShadow() throws {
        var document = SubscriberDocument.monthlyPro()
        document.nonSubscriptions["com.acme.pro.monthly"] = []
        let pro = try #require(try document.snapshot()["pro"])
        #expect(pro.renewState == .willRenew)
        #expect(pro.transactions.map(\.type) == [.subscriptionRenewed])
    }

    @Test("the join uses the bare product id; the Google base plan only fills productPlanId")
    func joinsOnBareProductId() throws {
        var document = SubscriberDocument()
        document.subscriptions["acme_pro"] = SubscriberDocument.subscriptionMembers([
            "\"product_plan_identifier\": \"monthly\"", "\"store\": \"play_store\"",
        ])
        document.entitlements["pro"] = SubscriberDocument.entitlementMembers(product: "acme_pro")
        document.entitlements["pro_colon"] = SubscriberDocument.entitlementMembers(product: "acme_pro:monthly")
        let snapshot = try document.snapshot()
        #expect(snapshot["pro"]?.productId == "acme_pro")
        #expect(snapshot["pro"]?.productPlanId == "monthly")
        #expect(snapshot["pro_colon"] == nil, "a product:plan id names no purchase")
    }

    @Test("the plan id comes from the joined purchase only, as the spec's purchase fields do")
    func planIdFromJoinedPurchase() throws {
        let both = SubscriberDocument.monthlyPro(
            subscription: ["\"product_plan_identifier\": \"monthly\""],
            entitlement: ["\"product_plan_identifier\": \"monthly-legacy\""])
        #expect(try both.snapshot()["pro"]?.productPlanId == "monthly")
        let entitlementOnly = SubscriberDocument.monthlyPro(entitlement: [
            "\"product_plan_identifier\": \"monthly-legacy\""
        ])
        #expect(try entitlementOnly.snapshot()["pro"]?.productPlanId == nil)
    }

    @Test("an entitlement whose product is in neither map is left out, even with a future expiry")
    func orphanIsDropped() throws {
        var document = SubscriberDocument.monthlyPro()
        document.entitlements["beta"] = SubscriberDocument.entitlementMembers(
            product: "com.acme.beta", ["\"expires_date\": \"2030-01-01T00:00:00Z\""])
        document.entitlements["legacy"] = SubscriberDocument.entitlementMembers(
            product: "com.acme.legacy", ["\"expires_date\": null"])
        document.entitlements["unnamed"] = SubscriberDocument.entitlementMembers(product: "")
        let snapshot = try document.snapshot()
        #expect(snapshot.entitlements.keys.sorted() == ["pro"])
        #expect(snapshot.activeEntitlementIds == ["pro"])
    }

    @Test("one product can unlock several entitlements, each with its own transaction")
    func oneProductTwoEntitlements() throws {
        var document = SubscriberDocument.monthlyPro()
        document.entitlements["cloud"] = SubscriberDocument.entitlementMembers(product: "com.acme.pro.monthly")
        let snapshot = try document.snapshot()
        #expect(snapshot.activeEntitlementIds == ["cloud", "pro"])
        #expect(snapshot.entitlements(forProduct: "com.acme.pro.monthly").map(\.id) == ["cloud", "pro"])
        #expect(snapshot["cloud"]?.transactions == snapshot["pro"]?.transactions)
    }
}
