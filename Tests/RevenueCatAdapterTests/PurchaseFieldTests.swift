import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// Renew state, period, store, ownership, grant type, sandbox and the purchase dates, each from its
/// RevenueCat rule.
@Suite("Purchase fields", .timeLimit(.minutes(5)))
struct PurchaseFieldTests {
    // MARK: Renew state

    @Test(
        "renew state follows the unified RevenueCat rule, in order",
        arguments: [
            ([String](), [String](), RenewState.willRenew),
            (["\"unsubscribe_detected_at\": \"2025-09-10T19:22:03Z\""], [], .cancelled),
            (["\"billing_issues_detected_at\": \"2025-09-03T12:07:41Z\""], [], .billingIssue),
            (
                [
                    "\"billing_issues_detected_at\": \"2025-09-03T12:07:41Z\"",
                    "\"unsubscribe_detected_at\": \"2025-09-10T19:22:03Z\"",
                ], [], .billingIssue
            ),
            (["\"store\": \"promotional\""], [], .nonRenewable),
            (
                ["\"store\": \"promotional\"", "\"billing_issues_detected_at\": \"2025-09-03T12:07:41Z\""], [],
                .nonRenewable
            ),
            (["\"period_type\": \"prepaid\""], [], .nonRenewable),
            ([], ["\"expires_date\": null"], .nonRenewable),
        ])
    func renewState(subscription: [String], entitlement: [String], expected: RenewState) throws {
        let pro = try #require(
            try SubscriberDocument.monthlyPro(subscription: subscription, entitlement: entitlement).snapshot()["pro"])
        #expect(pro.renewState == expected)
        #expect(pro.willRenew == (expected == .willRenew))
    }

    @Test("an expired subscription without flags still reads willRenew: the rule does not look at access")
    func expiredWithoutFlagsWillRenew() throws {
        let pro = try #require(try SubscriberDocument.monthlyPro().snapshot(at: "2026-01-01T00:00:00Z")["pro"])
        #expect(!pro.isActive)
        #expect(pro.renewState == .willRenew)
    }

    // MARK: Raw values

    @Test(
        "every RevenueCat store value maps; anything else is unknown with the raw value kept",
        arguments: [
            ("app_store", Store.appStore), ("mac_app_store", .macAppStore), ("play_store", .playStore),
            ("amazon", .amazon),
            ("stripe", .stripe), ("promotional", .promotional), ("rc_billing", .rcBilling), ("paddle", .paddle),
            ("external", .external), ("test_store", .testStore), ("galaxy", .galaxy), ("roku", .unknown),
            ("tienda", .unknown),
            ("APP_STORE", .unknown),
        ])
    func store(raw: String, expected: Store) throws {
        let pro = try #require(
            try SubscriberDocument.monthlyPro(subscription: ["\"store\": \"\(raw)\""]).snapshot()["pro"])
        #expect(pro.store == expected)
        #expect(pro.storeRaw == raw)
        #expect(pro.transactions.first?.store == expected)
    }

    @Test(
        "period types map; absent or null is normal; unrecognised stays unknown (the SDK says normal)",
        arguments: [
            ("\"period_type\": \"normal\"", PeriodType.normal), ("\"period_type\": \"trial\"", .trial),
            ("\"period_type\": \"intro\"", .intro), ("\"period_type\": \"prepaid\"", .prepaid),
            ("\"period_type\": null", .normal), ("\"period_type\": \"NORMAL\"", .unknown),
            ("\"period_type\": \"promotional\"", .unknown), ("\"period_type\": \"period\"", .unknown),
            ("\"period_type\": 3", .unknown),
        ])
    func periodType(member: String, expected: PeriodType) throws {
        #expect(try SubscriberDocument.monthlyPro(subscription: [member]).snapshot()["pro"]?.periodType == expected)
    }

    @Test("a missing period_type is normal")
    func missingPeriodType() throws {
        var document = SubscriberDocument.monthlyPro()
        document.subscriptions["com.acme.pro.monthly"] = removing(
            "period_type", from: SubscriberDocument.subscriptionMembers())
        #expect(try document.snapshot()["pro"]?.periodType == .normal)
    }

    @Test(
        "ownership: missing or null is purchased, FAMILY_SHARED is family sharing, anything else unknown",
        arguments: [
            ("\"ownership_type\": \"PURCHASED\"", OwnershipType.purchased, GrantType.purchase),
            ("\"ownership_type\": \"FAMILY_SHARED\"", .familyShared, .familySharing),
            ("\"ownership_type\": null", .purchased, .purchase),
            ("\"ownership_type\": \"BOATY_MCBOATFACE\"", .unknown, .purchase),
            ("\"ownership_type\": \"family_shared\"", .unknown, .purchase),
            ("\"ownership_type\": 1", .unknown, .purchase),
        ])
    func ownership(member: String, expected: OwnershipType, grant: GrantType) throws {
        let pro = try #require(try SubscriberDocument.monthlyPro(subscription: [member]).snapshot()["pro"])
        #expect(pro.ownershipType == expected)
        #expect(pro.grantType == grant)
        #expect(pro.transactions.first?.ownershipType == expected)
    }

    @Test("a missing ownership_type is purchased")
    func missingOwnership() throws {
        var document = SubscriberDocument.monthlyPro()
        document.subscriptions["com.acme.pro.monthly"] = removing(
            "ownership_type", from: SubscriberDocument.subscriptionMembers())
        #expect(try document.snapshot()["pro"]?.ownershipType == .purchased)
    }

    @Test("a promotional store is a manual grant, even when family shared")
    func promotionalIsManual() throws {
        let document = SubscriberDocument.monthlyPro(subscription: [
            "\"store\": \"promotional\"", "\"ownership_type\": \"FAMILY_SHARED\"",
        ])
        #expect(try document.snapshot()["pro"]?.grantType == .manual)
    }

    @Test(
        "sandbox: from is_sandbox; absent or null on a subscription is production",
        arguments: [
            ("\"is_sandbox\": true", true), ("\"is_sandbox\": false", false), ("\"is_sandbox\": null", false),
        ])
    func sandbox(member: String, expected: Bool) throws {
        let pro = try #require(try SubscriberDocument.monthlyPro(subscription: [member]).snapshot()["pro"])
        #expect(pro.isSandbox == expected)
        #expect(pro.transactions.first?.environment == (expected ? .sandbox : .production))
    }

    // MARK: Dates

    @Test("dates: latest purchase from the entitlement, original purchase and flags from the subscription")
    func dates() throws {
        let document = SubscriberDocument.monthlyPro(
            subscription: [
                "\"unsubscribe_detected_at\": \"2025-09-10T19:22:03Z\"",
                "\"billing_issues_detected_at\": \"2025-09-11T01:00:00Z\"",
                "\"grace_period_expires_date\": \"2025-10-19T12:00:05Z\"",
                "\"refunded_at\": \"2025-09-12T08:30:00.250Z\"",
            ],
            entitlement: [
                "\"purchase_date\": \"2025-09-03T12:00:09Z\"",
                "\"grace_period_expires_date\": \"2025-10-20T00:00:00Z\"",
            ])
        let pro = try #require(try document.snapshot()["pro"])
        #expect(pro.latestPurchaseDate == instant("2025-09-03T12:00:09Z"))
        #expect(pro.originalPurchaseDate == instant("2025-04-03T12:00:05Z"))
        #expect(pro.unsubscribeDetectedAt == instant("2025-09-10T19:22:03Z"))
        #expect(pro.billingIssueDetectedAt == instant("2025-09-11T01:00:00Z"))
        #expect(pro.gracePeriodExpirationDate == instant("2025-10-19T12:00:05Z"))
        #expect(pro.refundedAt == instant("2025-09-12T08:30:00.250Z"))
        #expect(pro.transactions.first?.revocationDate == instant("2025-09-12T08:30:00.250Z"))
        #expect(pro.firstPurchaseDate == nil)
        #expect(pro.renewsCount == nil)
        #expect(pro.lastActivatedOfferCode == nil)
    }

    @Test("the entitlement's grace period fills in when the subscription has none")
    func graceFallback() throws {
        let document = SubscriberDocument.monthlyPro(entitlement: [
            "\"grace_period_expires_date\": \"2025-10-20T00:00:00Z\""
        ])
        #expect(try document.snapshot()["pro"]?.gracePeriodExpirationDate == instant("2025-10-20T00:00:00Z"))
    }

    @Test("the trial start is the subscription's purchase date, only in a trial period")
    func trialStart() throws {
        let trial = SubscriberDocument.monthlyPro(subscription: [
            "\"period_type\": \"trial\"", "\"purchase_date\": \"2025-09-12T16:20:00Z\"",
        ])
        #expect(try trial.snapshot()["pro"]?.trialStartDate == instant("2025-09-12T16:20:00Z"))
        let intro = SubscriberDocument.monthlyPro(subscription: ["\"period_type\": \"intro\""])
        #expect(try intro.snapshot()["pro"]?.trialStartDate == nil)
    }

    @Test("a missing entitlement purchase_date leaves latestPurchaseDate empty")
    func missingLatestPurchase() throws {
        var document = SubscriberDocument.monthlyPro()
        document.entitlements["pro"] = removing(
            "purchase_date", from: SubscriberDocument.entitlementMembers(product: "com.acme.pro.monthly"))
        #expect(try document.snapshot()["pro"]?.latestPurchaseDate == nil)
    }

    @Test("dates with an offset or fractional seconds land on the same instant")
    func dateForms() throws {
        let document = SubscriberDocument.monthlyPro(entitlement: [
            "\"expires_date\": \"2025-10-03T14:00:05.000+02:00\""
        ])
        #expect(try document.snapshot()["pro"]?.expirationDate == instant("2025-10-03T12:00:05Z"))
    }
}
