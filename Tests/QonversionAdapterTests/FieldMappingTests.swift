import EntitlementKit
import EntitlementKitQonversion
import Foundation
import TestSupport
import Testing

/// The spec's field table, one shape at a time.
@Suite("Field mapping", .timeLimit(.minutes(5)))
struct FieldMappingTests {
    @Test func launchResultEnvelope() throws {
        let json = """
            {"success": true, "data": {"uid": "QON_abc", "timestamp": \(seconds("2025-06-01T11:59:58Z")),
             "apple_extra": {"original_application_version": "142"}, "permissions": []}}
            """
        let snapshot = try qonversionSnapshot(json)
        #expect(snapshot.provider == .qonversion)
        #expect(snapshot.appUserId == "QON_abc")
        #expect(snapshot.requestDate == instant("2025-06-01T11:59:58Z"))
        #expect(snapshot.originalApplicationVersion == "142")
        #expect(snapshot.evaluatedAt == evaluationInstant)
        #expect(snapshot.originalAppUserId == nil)
        #expect(snapshot.firstSeen == nil)
        #expect(snapshot.managementURL == nil)
        #expect(snapshot.originalPurchaseDate == nil)
        #expect(snapshot.entitlements.isEmpty)
        #expect(snapshot.nonSubscriptionTransactions.isEmpty)
    }

    @Test func launchResultWithoutSuccessOrOptionalEnvelopeKeys() throws {
        let snapshot = try qonversionSnapshot(#"{"data": {"permissions": [{"id": "premium", "active": 1}]}}"#)
        #expect(snapshot.appUserId == nil)
        #expect(snapshot.requestDate == nil)
        #expect(snapshot.originalApplicationVersion == nil)
        #expect(snapshot.activeEntitlementIds == ["premium"])
    }

    @Test func everyLaunchResultEntitlementField() throws {
        let members = """
            "id": "premium", "associated_product": "premium_monthly", "active": 1, "renew_state": 2,
            "source": "playstore", "current_period_type": "trial", "grant_type": "offer_code",
            "started_timestamp": \(seconds("2025-01-01T00:00:00Z")),
            "trial_start_timestamp": \(seconds("2025-01-01T00:00:00Z")),
            "first_purchase_timestamp": \(seconds("2025-01-08T00:00:00Z")),
            "last_purchase_timestamp": \(seconds("2025-05-08T00:00:00Z")),
            "expiration_timestamp": \(seconds("2025-06-08T00:00:00Z")),
            "auto_renew_disable_timestamp": \(seconds("2025-05-20T10:30:00Z")),
            "renews_count": 4, "last_activated_offer_code": "WINBACK"
            """
        let mapped = try #require(try qonversionSnapshot(launchResult(permission: members))["premium"])
        #expect(mapped.id == "premium")
        #expect(mapped.isActive)
        #expect(mapped.productId == "premium_monthly")
        #expect(mapped.productPlanId == nil)
        #expect(mapped.renewState == .cancelled)
        #expect(mapped.periodType == .trial)
        #expect(mapped.store == .playStore)
        #expect(mapped.storeRaw == "playstore")
        #expect(mapped.grantType == .offerCode)
        #expect(mapped.originalPurchaseDate == instant("2025-01-01T00:00:00Z"))
        #expect(mapped.trialStartDate == instant("2025-01-01T00:00:00Z"))
        #expect(mapped.firstPurchaseDate == instant("2025-01-08T00:00:00Z"))
        #expect(mapped.latestPurchaseDate == instant("2025-05-08T00:00:00Z"))
        #expect(mapped.expirationDate == instant("2025-06-08T00:00:00Z"))
        #expect(mapped.unsubscribeDetectedAt == instant("2025-05-20T10:30:00Z"))
        #expect(mapped.gracePeriodExpirationDate == nil)
        #expect(mapped.billingIssueDetectedAt == nil)
        #expect(mapped.refundedAt == nil)
        #expect(mapped.renewsCount == 4)
        #expect(mapped.lastActivatedOfferCode == "WINBACK")
    }

    @Test func absentOptionalFieldsAreNullNotDefaults() throws {
        let mapped = try #require(
            try qonversionSnapshot(launchResult(permission: #""id": "premium", "active": 1"#))["premium"])
        #expect(mapped.productId == nil)
        #expect(mapped.originalPurchaseDate == nil)  // iOS would say 1970-01-01
        #expect(mapped.expirationDate == nil)
        #expect(mapped.renewsCount == nil)  // both SDKs would say 0
        #expect(mapped.lastActivatedOfferCode == nil)
        #expect(mapped.grantType == .unknown)
        #expect(mapped.periodType == .unknown)
    }

    @Test func emptyProductIdAndOfferCodeAreNull() throws {
        let members = #""id": "premium", "active": 1, "associated_product": "", "last_activated_offer_code": """#
        let mapped = try qonversionSnapshot(launchResult(permission: members))["premium"]
        #expect(mapped?.productId == nil)
        #expect(mapped?.lastActivatedOfferCode == nil)
    }

    @Test func fractionalSecondsKeepMilliseconds() throws {
        let members = #""id": "premium", "active": 1, "expiration_timestamp": 1749542400.25"#
        let mapped = try qonversionSnapshot(launchResult(permission: members))["premium"]
        #expect(mapped?.expirationDate == instant("2025-06-10T08:00:00.250Z"))
    }

    @Test func v3Item() throws {
        let json = """
            {"object": "list", "data": [{"id": "premium", "active": true, "started": \(seconds("2025-05-25T16:00:00Z")),
              "expires": \(seconds("2025-06-08T16:00:00Z")), "source": "appstore",
              "product": {"product_id": "premium_annual", "subscription": {"renew_state": "will_renew", "current_period_type": "trial"}}}]}
            """
        let snapshot = try qonversionSnapshot(json)
        #expect(snapshot.appUserId == nil)
        #expect(snapshot.requestDate == nil)
        let mapped = try #require(snapshot["premium"])
        #expect(mapped.productId == "premium_annual")
        #expect(mapped.originalPurchaseDate == instant("2025-05-25T16:00:00Z"))
        #expect(mapped.expirationDate == instant("2025-06-08T16:00:00Z"))
        #expect(mapped.renewState == .willRenew)
        #expect(mapped.periodType == .trial)
        #expect(mapped.store == .appStore)
        #expect(mapped.grantType == .unknown)
        #expect(mapped.ownershipType == .unknown)
        #expect(mapped.renewsCount == nil)
        #expect(mapped.transactions.isEmpty)
    }

    @Test func restItemWithoutProductOrSubscription() throws {
        let json =
            #"{"data": [{"id": "bonus", "active": true, "source": "manual"}, {"id": "pack", "active": true, "product": {"product_id": "pack_1"}}]}"#
        let snapshot = try qonversionSnapshot(json)
        #expect(snapshot["bonus"]?.productId == nil)
        #expect(snapshot["bonus"]?.store == .promotional)
        #expect(snapshot["bonus"]?.expirationDate == nil)
        #expect(snapshot["pack"]?.productId == "pack_1")
        #expect(snapshot["pack"]?.renewState == .unknown)  // a one-time product has no subscription; not inferred
    }

    @Test func v4ItemDatesAreISOAndNormalisedToUTC() throws {
        let json = """
            {"object": "list", "url": "/v4/users/QON_1/entitlements", "has_more": false, "data": [
              {"object": "user_entitlement", "id": "premium", "url": "/v4/users/QON_1/entitlements/premium",
               "is_active": true, "source": "stripe", "started_at": "2025-03-15T14:30:00+02:00",
               "expires_at": "2025-06-15T12:30:00.250Z",
               "product": {"product_id": "premium_quarterly", "subscription": {"renew_state": "billing_issue", "current_period_type": "normal"}}}]}
            """
        let snapshot = try qonversionSnapshot(json)
        #expect(snapshot.appUserId == nil)  // only inside `url`, which is not parsed
        let mapped = try #require(snapshot["premium"])
        #expect(mapped.originalPurchaseDate == instant("2025-03-15T12:30:00Z"))
        #expect(mapped.expirationDate == instant("2025-06-15T12:30:00.250Z"))
        #expect(mapped.renewState == .billingIssue)
        #expect(mapped.periodType == .normal)
        #expect(mapped.store == .stripe)
        #expect(mapped.productId == "premium_quarterly")
    }

    @Test func v4WithoutHasMoreIsAccepted() throws {
        let json =
            #"{"object": "list", "url": "/v4/users/QON_1/entitlements", "data": [{"object": "user_entitlement", "id": "a", "is_active": true}]}"#
        #expect(try qonversionSnapshot(json).activeEntitlementIds == ["a"])
    }

    @Test func entitlementsForProductAndAllAreAnswered() throws {
        let json = """
            {"data": {"permissions": [
              {"id": "premium", "active": 1, "associated_product": "bundle"},
              {"id": "no_ads", "active": 1, "associated_product": "bundle"},
              {"id": "old", "active": 0, "associated_product": "legacy"}]}}
            """
        let snapshot = try qonversionSnapshot(json)
        #expect(snapshot.entitlements(forProduct: "bundle").map(\.id) == ["no_ads", "premium"])
        #expect(snapshot.all.map(\.id) == ["no_ads", "old", "premium"])
        #expect(snapshot.activeEntitlementIds == ["no_ads", "premium"])
    }
}
