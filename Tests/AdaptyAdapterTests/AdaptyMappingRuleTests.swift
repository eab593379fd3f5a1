import EntitlementKit
import EntitlementKitAdapty
import Foundation
import Testing

/// One test per mapping rule of adapty-mapping.md that a fixture alone would not pin down.
@Suite("Adapty mapping rules", .timeLimit(.minutes(5)))
struct AdaptyMappingRuleTests {
    @Test func accessNeedsTheFlagAndTheDate() throws {
        let active = try adaptySnapshot(bridgeProfile(level: premiumLevel()))
        #expect(active.isActive("premium"))
        let flagOff = try adaptySnapshot(bridgeProfile(level: premiumLevel(active: "false")))
        #expect(!flagOff.isActive("premium"))
        // A cached `is_active: true` past its expiry grants nothing; the expiry instant itself still does.
        let stale = try adaptySnapshot(bridgeProfile(level: premiumLevel()), at: instant("2025-06-10T00:00:00.001Z"))
        #expect(!stale.isActive("premium"))
        let boundary = try adaptySnapshot(bridgeProfile(level: premiumLevel()), at: instant("2025-06-10T00:00:00Z"))
        #expect(boundary.isActive("premium"))
    }

    @Test func appUserIdFallsBackToTheProfileId() throws {
        for customer in [#""customer_user_id": null"#, #""customer_user_id": """#, #""segment_hash": "x""#] {
            let snapshot = try adaptySnapshot(bridgeProfile(level: premiumLevel(), extra: customer))
            #expect(snapshot.appUserId == "00000000-0000-4000-8000-000000000001")
            #expect(snapshot.originalAppUserId == "00000000-0000-4000-8000-000000000001")
        }
        let named = try adaptySnapshot(bridgeProfile(level: premiumLevel(), extra: #""customer_user_id": "ana""#))
        #expect(named.appUserId == "ana")
    }

    @Test func aTimestampOfZeroOrLessIsNoServerTime() throws {
        for (timestamp, expected) in [("0", nil), ("-1", nil), ("1748779200000", instant("2025-06-01T12:00:00Z"))] {
            let snapshot = try adaptySnapshot(
                bridgeProfile(level: premiumLevel(), extra: #""timestamp": \#(timestamp)"#))
            #expect(snapshot.requestDate == expected)
        }
        #expect(adaptyFailure(bridgeProfile(level: premiumLevel(), extra: #""timestamp": "now""#))?.kind == .wrongType)
        #expect(
            adaptyFailure(bridgeProfile(level: premiumLevel(), extra: #""timestamp": 999999999999999"#))?.kind
                == .invalidValue)
    }

    @Test func aPlayIdIsSplitOnlyInAdaptysCombinedForm() throws {
        func level(_ product: String, store: String, basePlan: String? = nil) throws -> Entitlement? {
            var extra = ""
            if let basePlan { extra = #", "base_plan_id": "\#(basePlan)""# }
            let json = bridgeProfile(
                level: #""is_active": true, "vendor_product_id": "\#(product)", "store": "\#(store)"\#(extra)"#)
            return try adaptySnapshot(json)["premium"]
        }
        let split = try level("gold:gold-monthly", store: "play_store")
        #expect(split?.productId == "gold" && split?.productPlanId == "gold-monthly")
        let twoColons = try level("gold:plan:extra", store: "play_store")
        #expect(twoColons?.productId == "gold" && twoColons?.productPlanId == "plan:extra")
        let withBasePlan = try level("gold:gold-monthly", store: "play_store", basePlan: "gold-annual")
        #expect(withBasePlan?.productId == "gold:gold-monthly" && withBasePlan?.productPlanId == "gold-annual")
        let emptyBasePlan = try level("gold:gold-monthly", store: "play_store", basePlan: "")
        #expect(emptyBasePlan?.productId == "gold" && emptyBasePlan?.productPlanId == "gold-monthly")
        let appStore = try level("com.example:pro", store: "app_store")
        #expect(appStore?.productId == "com.example:pro" && appStore?.productPlanId == nil)
    }

    @Test func aLifetimeLevelHasNoGraceDateAndNoRenewal() throws {
        let json = bridgeProfile(
            level:
                #""is_active": true, "vendor_product_id": "forever", "is_lifetime": true, "is_in_grace_period": true, "will_renew": true"#
        )
        let level = try #require(try adaptySnapshot(json)["premium"])
        #expect(level.gracePeriodExpirationDate == nil)
        #expect(level.renewState == .nonRenewable)
        #expect(level.isActive)
    }

    @Test func aSubscriptionMayBeLifetimeWithAnExpiry() throws {
        // Tolerated on a subscription (an SDK mock has it); only an access level's pair is a contradiction.
        let json = bridgeProfile(
            level: premiumLevel(),
            extra:
                #""subscriptions": {"premium.monthly": {"is_lifetime": true, "expires_at": "2025-06-10T00:00:00.000Z", "is_sandbox": true}}"#
        )
        #expect(try adaptySnapshot(json)["premium"]?.isSandbox == true)
    }

    @Test func nothingJoinedMeansNoTransactionAndNotSandbox() throws {
        let level = try #require(try adaptySnapshot(bridgeProfile(level: premiumLevel()))["premium"])
        #expect(level.transactions.isEmpty)
        #expect(!level.isSandbox)
    }

    @Test func v2IsSandboxWhenTheLevelOrItsSubscriptionSaysSandbox() throws {
        func sandbox(level environment: String?, subscription: String?) throws -> Bool? {
            let levelEnvironment = environment.map { #", "environment": "\#($0)""# } ?? ""
            let subscriptionEnvironment = subscription.map { #", "environment": "\#($0)""# } ?? ""
            let json = """
                {"data": {"profile_id": "p", "access_levels": [{"access_level_id": "premium", "store_product_id": "pm"\(levelEnvironment)}], \
                "subscriptions": [{"store_product_id": "pm"\(subscriptionEnvironment)}]}}
                """
            return try adaptySnapshot(json)["premium"]?.isSandbox
        }
        #expect(try sandbox(level: "Sandbox", subscription: nil) == true)
        #expect(try sandbox(level: nil, subscription: "Sandbox") == true)
        #expect(try sandbox(level: "Production", subscription: "Sandbox") == true)
        #expect(try sandbox(level: "Production", subscription: "Production") == false)
        #expect(try sandbox(level: nil, subscription: nil) == false)
    }

    @Test func v2AccessIsTheDateRuleUnlessRefundedOrRevoked() throws {
        func active(_ reason: String?) throws -> Bool? {
            let field = reason.map { #", "cancellation_reason": "\#($0)""# } ?? ""
            let json = """
                {"data": {"profile_id": "p", "access_levels": [{"access_level_id": "premium", "store_product_id": "pm", \
                "expires_at": "2025-07-01T00:00:00+00:00"\(field)}]}}
                """
            return try adaptySnapshot(json)["premium"]?.isActive
        }
        #expect(try active(nil) == true)
        #expect(try active("voluntarily_cancelled") == true)
        #expect(try active("refund") == false)
        #expect(try active("adapty_revoked") == false)
    }

    @Test func datesWithOffsetsAndFractionsLandInUTCToTheMillisecond() throws {
        let cases = [
            ("2025-06-10T00:00:00Z", "2025-06-10T00:00:00Z"),
            ("2025-06-10T00:00:00.1Z", "2025-06-10T00:00:00.100Z"),
            ("2025-06-10T00:00:00.123456+0000", "2025-06-10T00:00:00.123Z"),
            ("2025-06-10T03:00:00.999999+03:00", "2025-06-10T00:00:00.999Z"),
            ("2025-06-09T19:00:00-0500", "2025-06-10T00:00:00Z"),
        ]
        for (wire, canonical) in cases {
            let level = try adaptySnapshot(bridgeProfile(level: premiumLevel(expires: wire)))["premium"]
            #expect(level?.expirationDate == instant(canonical), "\(wire)")
        }
        #expect(
            adaptyFailure(bridgeProfile(level: premiumLevel(expires: "2025-06-10 00:00:00")))?.kind == .invalidValue)
        #expect(
            adaptyFailure(bridgeProfile(level: premiumLevel(expires: "2025-06-10T00:00:00")))?.kind == .invalidValue)
    }

    @Test func containersMayBeMissingOrNull() throws {
        for containers in ["", #", "paid_access_levels": null, "subscriptions": null, "non_subscriptions": null"#] {
            let snapshot = try adaptySnapshot(#"{"profile_id": "p"\#(containers)}"#)
            #expect(snapshot.entitlements.isEmpty && snapshot.nonSubscriptionTransactions.isEmpty)
        }
        #expect(adaptyFailure(#"{"profile_id": "p", "non_subscriptions": {"coins": {}}}"#)?.kind == .wrongType)
    }

    @Test func unknownEnumerationValuesNeverFailTheDocument() throws {
        let json = bridgeProfile(
            level: premiumLevel(
                extra: #""active_promotional_offer_type": "promo1", "cancellation_reason": 42, "offer_id": 7"#
            ).replacingOccurrences(of: #""store": "app_store""#, with: #""store": 5"#))
        let level = try #require(try adaptySnapshot(json)["premium"])
        #expect(level.store == .unknown && level.storeRaw == nil)
        #expect(level.periodType == .promotional)
    }
}
