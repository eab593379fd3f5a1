import EntitlementKit
import EntitlementKitAdapty
import Foundation
import TestSupport
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
        #expect(level.cancellationReason == .unknown && level.cancellationReasonRaw == nil)
    }

    /// "Other non-null → intro", "non-null → promotional": a value that is not a string still names the
    /// kind of offer by the field it is in.
    @Test func anOfferTypeThatIsNotAStringStillSaysWhichOffer() throws {
        func period(introductory: String, promotional: String) throws -> PeriodType? {
            let extra = """
                "active_introductory_offer_type": \(introductory), "active_promotional_offer_type": \(promotional)
                """
            return try adaptySnapshot(bridgeProfile(level: premiumLevel(extra: extra)))["premium"]?.periodType
        }
        for value in ["3", "true", "false", "{}", "[]", #""""#] {
            #expect(try period(introductory: value, promotional: "null") == .intro, "\(value)")
            #expect(try period(introductory: value, promotional: #""p""#) == .intro, "\(value)")
            #expect(try period(introductory: "null", promotional: value) == .promotional, "\(value)")
        }
        #expect(try period(introductory: #""free_trial""#, promotional: "3") == .trial)
        #expect(try period(introductory: "null", promotional: "null") == .normal)
    }

    /// `null` is kept for "Adapty does not say"; a reason sent that is not a string is `unknown`, with no
    /// raw string to keep, and `is_refund` still makes it `refunded`.
    @Test func aCancellationReasonThatIsNotAStringIsUnknown() throws {
        func reason(_ value: String, isRefund: Bool = false) throws -> (CancellationReason?, String?) {
            let extra = #""cancellation_reason": \#(value), "is_refund": \#(isRefund)"#
            let level = premiumLevel().replacingOccurrences(of: #", "is_refund": false"#, with: "")
            let entitlement = try #require(try adaptySnapshot(bridgeProfile(level: level + ", " + extra))["premium"])
            return (entitlement.cancellationReason, entitlement.cancellationReasonRaw)
        }
        for value in ["5", "0", "true", "{}", #"{"code": "refund"}"#, "[]"] {
            #expect(try reason(value) == (.unknown, nil), "\(value)")
            #expect(try reason(value, isRefund: true) == (.refunded, nil), "\(value)")
        }
        #expect(try reason("null") == (nil, nil))
        #expect(try reason(#""upgraded""#) == (.upgraded, "upgraded"))

        // v2 alike; only the strings `refund` and `adapty_revoked` withdraw access.
        for value in ["5", "{}"] {
            let json = """
                {"data": {"profile_id": "p", "access_levels": [{"access_level_id": "premium", "store_product_id": "pm", \
                "expires_at": "2025-07-01T00:00:00+00:00", "cancellation_reason": \(value)}]}}
                """
            let level = try #require(try adaptySnapshot(json)["premium"])
            #expect(level.cancellationReason == .unknown && level.cancellationReasonRaw == nil, "\(value)")
            #expect(level.isActive)
        }
    }

    /// Ids are compared as the bytes sent: a decomposed `café` (or a Kelvin sign for `K`) is a different
    /// id to Adapty, though Swift's `==` calls the strings equal.
    @Test func idsAreComparedByTheirBytes() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8))
        let level = #""is_active": true, "vendor_product_id": "p""#
        for (key, id) in [(composed, decomposed), (decomposed, composed), ("K", "\u{212A}")] {
            let json = #"{"profile_id": "p1", "paid_access_levels": {"\#(key)": {"id": "\#(id)", \#(level)}}}"#
            let error = adaptyFailure(json)
            #expect(error?.kind == .inconsistent, "\(key) / \(id)")
            #expect(error?.path == JSONPath.root.appending("paid_access_levels").appending(key).appending("id"))
        }
        let same = #"{"profile_id": "p1", "paid_access_levels": {"\#(composed)": {"id": "\#(composed)", \#(level)}}}"#
        #expect(try adaptySnapshot(same)[composed]?.isActive == true)

        func envelope(id: String, profileId: String) -> String {
            #"{"data": {"type": "adapty_analytics_profile", "id": "\#(id)", "attributes": {"profile_id": "\#(profileId)"}}}"#
        }
        let error = adaptyFailure(envelope(id: composed, profileId: decomposed))
        #expect(error?.kind == .inconsistent && error?.path.description == "data.id")
        #expect(adaptyFailure(envelope(id: "\u{212A}", profileId: "K"))?.kind == .inconsistent)
        #expect(try adaptySnapshot(envelope(id: decomposed, profileId: decomposed)).originalAppUserId == decomposed)
    }
}
