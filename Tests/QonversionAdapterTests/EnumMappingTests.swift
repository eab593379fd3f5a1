import EntitlementKit
import EntitlementKitQonversion
import Testing

/// Every raw value Qonversion documents, both SDK spellings where they disagree, and the fallbacks.
@Suite("Enum mapping", .timeLimit(.minutes(5)))
struct EnumMappingTests {
    func entitlement(_ extra: String) throws -> Entitlement {
        try #require(try qonversionSnapshot(launchResult(permission: premium(extra: extra)))["premium"])
    }

    func onlyTransaction(_ members: String) throws -> Transaction {
        let json = launchResult(permission: premium(extra: #""store_transactions": [{\#(members)}]"#))
        return try #require(try qonversionSnapshot(json)["premium"]?.transactions.first)
    }

    @Test(
        "renew_state: integer codes and REST names",
        arguments: [
            ("-1", RenewState.nonRenewable), ("0", .unknown), ("1", .willRenew), ("2", .cancelled),
            ("3", .billingIssue),
            ("4", .unknown), ("-2", .unknown), ("99", .unknown),
            (#""non_renewable""#, .nonRenewable), (#""will_renew""#, .willRenew), (#""canceled""#, .cancelled),
            (#""cancelled""#, .cancelled), (#""billing_issue""#, .billingIssue), (#""unknown""#, .unknown),
            (#""paused""#, .unknown), (#""1""#, .unknown), (#""WILL_RENEW""#, .unknown), ("null", .unknown),
            ("true", .unknown), ("1.5", .unknown), ("2.0", .cancelled), ("[1]", .unknown),
        ])
    func renewState(raw: String, expected: RenewState) throws {
        // `premium()` already sends renew_state 1; a second key would be a duplicate, so build it here.
        let members = #""id": "premium", "active": 1, "renew_state": \#(raw)"#
        let mapped = try #require(try qonversionSnapshot(launchResult(permission: members))["premium"])
        #expect(mapped.renewState == expected)
        #expect(mapped.willRenew == (expected == .willRenew))
    }

    @Test(
        "an enumeration of the wrong JSON type reads as unknown; it decides no access, so it never fails the document")
    func wrongTypedEnumerationsAreUnknown() throws {
        let members = #""id": "premium", "active": 1, "source": 1, "grant_type": true, "current_period_type": 3"#
        let mapped = try #require(try qonversionSnapshot(launchResult(permission: members))["premium"])
        #expect(mapped.store == .unknown)
        #expect(mapped.storeRaw == nil)
        #expect(mapped.grantType == .unknown)
        #expect(mapped.periodType == .unknown)
        #expect(mapped.isActive)
        let transaction = try onlyTransaction(
            #""transaction_id": "1", "environment": 1, "ownership_type": false, "type": {}"#)
        #expect(transaction.environment == .unknown)
        #expect(transaction.ownershipType == .unknown)
        #expect(transaction.type == .unknown)
    }

    @Test func absentRenewStateIsUnknown() throws {
        let mapped = try qonversionSnapshot(launchResult(permission: #""id": "premium", "active": 1"#))["premium"]
        #expect(mapped?.renewState == .unknown)
    }

    @Test(
        "grant_type, both offer-code spellings; absent is unknown, not purchase",
        arguments: [
            (#""grant_type": "purchase""#, GrantType.purchase),
            (#""grant_type": "family_sharing""#, .familySharing),
            (#""grant_type": "offer_code""#, .offerCode),
            (#""grant_type": "offerCode""#, .offerCode),
            (#""grant_type": "manual""#, .manual),
            (#""grant_type": "Purchase""#, .unknown),
            (#""grant_type": "gift""#, .unknown),
            (#""grant_type": null"#, .unknown),
            (#""renews_count": 0"#, .unknown),  // no grant_type at all
        ])
    func grantType(members: String, expected: GrantType) throws {
        #expect(try entitlement(members).grantType == expected)
    }

    @Test(
        "source → store, raw value kept",
        arguments: [
            ("appstore", Store.appStore), ("playstore", .playStore), ("stripe", .stripe), ("manual", .promotional),
            ("unknown", .unknown), ("amazon", .unknown), ("appStore", .unknown), ("app_store", .unknown),
        ])
    func source(raw: String, expected: Store) throws {
        let members = #""id": "premium", "active": 1, "source": "\#(raw)""#
        let mapped = try #require(try qonversionSnapshot(launchResult(permission: members))["premium"])
        #expect(mapped.store == expected)
        #expect(mapped.storeRaw == raw)
    }

    @Test func absentSourceIsUnknownWithNoRawValue() throws {
        let mapped = try qonversionSnapshot(launchResult(permission: #""id": "premium", "active": 1"#))["premium"]
        #expect(mapped?.store == .unknown)
        #expect(mapped?.storeRaw == nil)
    }

    @Test(
        "current_period_type; v1's `regular` is in no published list",
        arguments: [
            ("normal", PeriodType.normal), ("trial", .trial), ("intro", .intro), ("regular", .unknown),
            ("promotional", .unknown), ("prepaid", .unknown), ("TRIAL", .unknown),
        ])
    func periodType(raw: String, expected: PeriodType) throws {
        #expect(try entitlement(#""current_period_type": "\#(raw)""#).periodType == expected)
    }

    @Test(
        "transaction type, both non-consumable spellings",
        arguments: [
            ("subscription_started", TransactionType.subscriptionStarted),
            ("subscription_renewed", .subscriptionRenewed),
            ("trial_started", .trialStarted),
            ("intro_started", .introStarted),
            ("intro_renewed", .introRenewed),
            ("nonconsumable_purchase", .nonConsumablePurchase),
            ("non_consumable_purchase", .nonConsumablePurchase),
            ("consumable_purchase", .unknown),
            ("SubscriptionStarted", .unknown),
            ("upgrade", .unknown),
        ])
    func transactionType(raw: String, expected: TransactionType) throws {
        #expect(try onlyTransaction(#""transaction_id": "1", "type": "\#(raw)""#).type == expected)
    }

    @Test(
        "environment: unknown stays unknown (the SDKs assume production)",
        arguments: [
            (#""environment": "production""#, Environment.production),
            (#""environment": "sandbox""#, .sandbox),
            (#""environment": "Sandbox""#, .unknown),
            (#""environment": "staging""#, .unknown),
            (#""transaction_id": "1""#, .unknown),
        ])
    func environment(members: String, expected: Environment) throws {
        #expect(try onlyTransaction(members).environment == expected)
    }

    @Test(
        "ownership_type: unknown stays unknown (the SDKs assume owner)",
        arguments: [
            (#""ownership_type": "owner""#, OwnershipType.purchased),
            (#""ownership_type": "family_sharing""#, .familyShared),
            (#""ownership_type": "borrowed""#, .unknown),
            (#""transaction_id": "1""#, .unknown),
        ])
    func ownership(members: String, expected: OwnershipType) throws {
        #expect(try onlyTransaction(members).ownershipType == expected)
    }

    @Test(
        "REST renew states and period types sit under product.subscription",
        arguments: [
            (#""will_renew""#, RenewState.willRenew), (#""canceled""#, .cancelled), (#""cancelled""#, .cancelled),
            (#""billing_issue""#, .billingIssue), (#""non_renewable""#, .nonRenewable), (#""unknown""#, .unknown),
            ("2", .cancelled),
        ])
    func restRenewState(raw: String, expected: RenewState) throws {
        let json = """
            {"data": [{"id": "premium", "active": true, "product": {"product_id": "p",
              "subscription": {"renew_state": \(raw), "current_period_type": "intro"}}}]}
            """
        let mapped = try #require(try qonversionSnapshot(json)["premium"])
        #expect(mapped.renewState == expected)
        #expect(mapped.periodType == .intro)
    }
}
