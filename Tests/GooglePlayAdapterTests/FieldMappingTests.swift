import EntitlementKit
import EntitlementKitGooglePlay
import Foundation
import TestSupport
import Testing

/// The field table of store-direct.md, one rule per test.
@Suite("Google Play field mapping", .timeLimit(.minutes(5)))
struct FieldMappingTests {
    private func entitlement(_ document: [String: Any]) throws -> Entitlement {
        let snapshot = try playSnapshot(document)
        return try #require(snapshot.all.first)
    }

    @Test("renewState: prepaid, billing issue, cancelled, willRenew, unknown")
    func renewState() throws {
        #expect(
            try entitlement(subscription(items: [lineItem(autoRenew: nil, extra: ["prepaidPlan": [:]])])).renewState
                == .nonRenewable)
        #expect(try entitlement(subscription("IN_GRACE_PERIOD")).renewState == .billingIssue)
        #expect(try entitlement(subscription("ON_HOLD")).renewState == .billingIssue)
        #expect(try entitlement(subscription("CANCELED")).renewState == .cancelled)
        #expect(try entitlement(subscription(items: [lineItem(autoRenew: false)])).renewState == .cancelled)
        #expect(try entitlement(subscription("PAUSED")).renewState == .willRenew)
        #expect(try entitlement(subscription()).renewState == .willRenew)
        #expect(try entitlement(subscription(items: [lineItem(autoRenew: nil)])).renewState == .unknown)
        let product = listing(products: [("acme_remove_ads", "tok", productPurchase())])
        #expect(try entitlement(product).renewState == .nonRenewable)
    }

    @Test("periodType from offerPhase, offerId and prepaidPlan")
    func periodType() throws {
        func period(_ extra: [String: Any], autoRenew: Bool? = true) throws -> PeriodType {
            try entitlement(subscription(items: [lineItem(autoRenew: autoRenew, extra: extra)])).periodType
        }
        #expect(try period(["offerPhase": ["freeTrial": [:]]]) == .trial)
        #expect(try period(["offerPhase": ["introductoryPrice": [:]]]) == .intro)
        #expect(try period(["offerPhase": ["basePrice": [:]]]) == .normal)
        #expect(try period(["offerPhase": ["prorationPeriod": ["originalOfferPhaseType": "FREE_TRIAL"]]]) == .normal)
        #expect(try period(["offerPhase": ["someNewPhase": [:]]]) == .unknown)
        #expect(try period(["offerDetails": ["basePlanId": "monthly", "offerId": "winback"]]) == .unknown)
        #expect(try period([:]) == .normal)
        #expect(try period(["prepaidPlan": [:], "offerPhase": ["basePrice": [:]]], autoRenew: nil) == .prepaid)
    }

    @Test("productId and productPlanId: the line item's bare product and its base plan")
    func productAndPlan() throws {
        let item = lineItem(product: "acme_pro", extra: ["offerDetails": ["basePlanId": "yearly", "offerId": "x"]])
        let pro = try entitlement(subscription(items: [item]))
        #expect(pro.productId == "acme_pro")
        #expect(pro.productPlanId == "yearly")
    }

    @Test("grantType: a signup promotion is an offer code (a vanity code's text on the transaction)")
    func signupPromotion() throws {
        let vanity = try entitlement(
            subscription(items: [lineItem(extra: ["signupPromotion": ["vanityCode": ["promotionCode": "FALL10"]]])]))
        #expect(vanity.grantType == .offerCode)
        #expect(vanity.transactions.first?.offerCode == "FALL10")
        let oneTime = try entitlement(subscription(items: [lineItem(extra: ["signupPromotion": ["oneTimeCode": [:]]])]))
        #expect(oneTime.grantType == .offerCode)
        #expect(oneTime.transactions.first?.offerCode == nil)
        #expect(try entitlement(subscription()).grantType == .purchase)
        let promo = listing(products: [("acme_theme", "tok", productPurchase(extra: ["purchaseType": 1]))])
        #expect(try entitlement(promo).grantType == .offerCode)
    }

    @Test("store and sandbox: testPurchase on a subscription, purchaseType 0 on a product")
    func sandbox() throws {
        let test = try entitlement(subscription(extra: ["testPurchase": [:]]))
        #expect(test.isSandbox)
        #expect(test.store == .playStore)
        #expect(test.storeRaw == nil)
        #expect(test.transactions.first?.environment == .sandbox)
        #expect(try !entitlement(subscription()).isSandbox)
        func productSandbox(_ type: Int?) throws -> Bool {
            let extra: [String: Any] = type.map { ["purchaseType": $0] } ?? [:]
            return try entitlement(listing(products: [("acme_x", "tok", productPurchase(extra: extra))])).isSandbox
        }
        #expect(try productSandbox(0))
        #expect(try !productSandbox(nil))
        #expect(try !productSandbox(1))
        #expect(try !productSandbox(2))
    }

    @Test(
        "cancellationReason from canceledStateContext on CANCELED and EXPIRED, raw kept",
        arguments: [
            ("userInitiatedCancellation", CancellationReason.customerCancelled),
            ("systemInitiatedCancellation", .billingError),
            ("developerInitiatedCancellation", .developerCancelled),
            ("replacementCancellation", .replaced),
            ("someFutureCancellation", .unknown),
        ])
    func cancellationReason(_ variant: String, _ reason: CancellationReason) throws {
        for state in ["CANCELED", "EXPIRED"] {
            let pro = try entitlement(subscription(state, extra: ["canceledStateContext": [variant: [:]]]))
            #expect(pro.cancellationReason == reason)
            #expect(pro.cancellationReasonRaw == variant)
        }
        let active = try entitlement(subscription("ACTIVE", extra: ["canceledStateContext": [variant: [:]]]))
        #expect(active.cancellationReason == nil)
        #expect(active.cancellationReasonRaw == nil)
    }

    @Test("a user's cancelTime is when the unsubscribe was detected")
    func unsubscribeTime() throws {
        let context = ["userInitiatedCancellation": ["cancelTime": "2025-09-02T18:45:10.250Z"]]
        let pro = try entitlement(subscription("CANCELED", extra: ["canceledStateContext": context]))
        #expect(pro.unsubscribeDetectedAt == instant("2025-09-02T18:45:10.250Z"))
        #expect(try entitlement(subscription("CANCELED")).cancellationReason == nil)
    }

    @Test("ids: latestSuccessfulOrderId, else latestOrderId; the purchase token as the original id")
    func identifiers() throws {
        let both = listing(subscriptions: [
            ("tok-1", subscription(items: [lineItem(order: "GPA.1..2")], extra: ["latestOrderId": "GPA.1..3"]))
        ])
        #expect(try entitlement(both).transactions.first?.transactionId == "GPA.1..2")
        #expect(try entitlement(both).transactions.first?.originalTransactionId == "tok-1")
        let deprecated = subscription(items: [lineItem(order: nil)], extra: ["latestOrderId": "GPA.1..3"])
        #expect(try entitlement(deprecated).transactions.first?.transactionId == "GPA.1..3")
        #expect(try entitlement(subscription(items: [lineItem(order: nil)])).transactions.first?.transactionId == nil)
    }

    @Test("transaction type from the phase and the order id's renewal suffix")
    func transactionType() throws {
        func type(_ order: String?, _ phase: String?) throws -> TransactionType? {
            let extra: [String: Any] = phase.map { ["offerPhase": [$0: [String: Any]()]] } ?? [:]
            return try entitlement(subscription(items: [lineItem(order: order, extra: extra)])).transactions.first?.type
        }
        #expect(try type("GPA.1", nil) == .subscriptionStarted)
        #expect(try type("GPA.1..0", nil) == .subscriptionRenewed)
        #expect(try type("GPA.1", "freeTrial") == .trialStarted)
        #expect(try type("GPA.1", "introductoryPrice") == .introStarted)
        #expect(try type("GPA.1..1", "introductoryPrice") == .introRenewed)
        #expect(try type(nil, nil) == .unknown)
    }

    @Test("dates: expiry, start, RFC 3339 with nanoseconds and offsets, milliseconds strings; no request date")
    func dates() throws {
        let document = subscription(
            start: "2025-06-01T02:00:00.987654321+02:00",
            items: [lineItem(expiry: "2025-10-01T00:00:00.123456789Z")])
        let snapshot = try playSnapshot(document)
        let pro = try #require(snapshot["acme_pro"])
        #expect(pro.expirationDate == instant("2025-10-01T00:00:00.123Z"))
        #expect(pro.latestPurchaseDate == instant("2025-06-01T00:00:00.987Z"))
        #expect(pro.gracePeriodExpirationDate == nil)
        #expect(pro.refundedAt == nil)
        #expect(snapshot.requestDate == nil)
        #expect(snapshot.verification == .notRequested)
        #expect(snapshot.provider == .googlePlay)

        let product = try entitlement(listing(products: [("acme_x", "tok", productPurchase(time: "1746000000123"))]))
        #expect(product.latestPurchaseDate == instant("2025-04-30T08:00:00.123Z"))
        #expect(product.expirationDate == nil)
    }

    @Test("appUserId: the newest purchase's obfuscated account id")
    func appUserId() throws {
        let document = listing(
            subscriptions: [
                (
                    "tok-1",
                    subscription(
                        start: "2025-03-01T00:00:00Z",
                        extra: ["externalAccountIdentifiers": ["obfuscatedExternalAccountId": "acct-old"]])
                ),
                ("tok-2", subscription(start: "2025-09-01T00:00:00Z")),
            ],
            products: [
                (
                    "acme_x", "tok-3",
                    productPurchase(time: "1750000000000", extra: ["obfuscatedExternalAccountId": "acct-new"])
                )
            ])
        #expect(try playSnapshot(document).appUserId == "acct-new")
        #expect(try playSnapshot(subscription()).appUserId == nil)
    }
}
