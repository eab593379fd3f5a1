import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

@Suite(
    "Simulated backend: identity and restore rules, lifecycles, wire formats the real adapters accept",
    .timeLimit(.minutes(5)))
struct SimulatedBackendTests {
    static let start = instant("2025-01-31T10:00:00Z")
    static let products = [
        ScenarioProduct(
            id: "monthly",
            kind: .autoRenewable(period: ISODuration(months: 1), trial: nil, gracePeriod: ISODuration("P16D")),
            entitlements: ["premium"]),
        ScenarioProduct(id: "forever", kind: .nonConsumable, entitlements: ["pro"]),
    ]

    static func backend(_ flavour: ProviderID, _ behavior: RestoreBehavior = .transferToNewAppUserId)
        -> SimulatedBackend
    {
        SimulatedBackend(flavour: flavour, products: products, restoreBehavior: behavior, start: start)
    }

    static func buy(_ product: String, account: String) -> StorePurchase {
        StorePurchase(receipt: StoreReceipt(store: .appStore, token: account), productId: product)
    }

    @Test func anonymousIdsHaveEachBackendsFormAndRepeat() {
        let revenueCat = Self.backend(.revenueCat).provider()
        let first = revenueCat.makeAnonymousAppUserId()
        #expect(first.hasPrefix("$RCAnonymousID:"))
        #expect(first.count == "$RCAnonymousID:".count + 32)
        #expect(revenueCat.isAnonymous(first))
        #expect(revenueCat.makeAnonymousAppUserId() != first)
        #expect(Self.backend(.revenueCat).provider().makeAnonymousAppUserId() == first)
        let qonversion = Self.backend(.qonversion).provider().makeAnonymousAppUserId()
        #expect(qonversion.hasPrefix("QON_"))
        #expect(qonversion.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(!revenueCat.isAnonymous("alice"))
    }

    @Test(arguments: ProviderID.backends)
    func theWireDocumentIsWhatTheRealAdapterReads(flavour: ProviderID) async throws {
        let backend = Self.backend(flavour)
        let snapshot = try await backend.provider().reportPurchase(
            Self.buy("monthly", account: "apple-1"), for: "alice")
        #expect(snapshot.provider == flavour)
        #expect(snapshot.activeEntitlementIds == ["premium"])
        #expect(snapshot["premium"]?.expirationDate == RFC3339.date(from: "2025-02-28T10:00:00Z"))
        #expect(snapshot["premium"]?.renewState == .willRenew)
        #expect(snapshot.requestDate == Self.start)

        let wire = await backend.wireDocument(for: "alice")
        let data = Data(wire.compactText.utf8)
        if flavour == .revenueCat {
            #expect(RevenueCatAdapter().recognizes(wire))
            #expect(wire["subscriber"]?["entitlements"]?["premium"]?["expires_date"] == .string("2025-02-28T10:00:00Z"))
            #expect(wire["subscriber"]?["subscriptions"]?["monthly"]?["store"] == .string("app_store"))
            #expect(wire["request_date"] == .string("2025-01-31T10:00:00Z"))
            _ = try RevenueCatAdapter().snapshot(from: data, at: Self.start)
        } else if flavour == .adapty {
            #expect(AdaptyAdapter().recognizes(wire))
            let level = wire["data"]?["attributes"]?["paid_access_levels"]?["premium"]
            #expect(level?["is_active"] == .bool(true))
            #expect(level?["will_renew"] == .bool(true))
            #expect(level?["expires_at"] == .string("2025-02-28T10:00:00.000000+0000"))
            #expect(wire["data"]?["attributes"]?["customer_user_id"] == .string("alice"))
            #expect(wire["data"]?["attributes"]?["timestamp"] == .integer(1_738_317_600_000))
            _ = try AdaptyAdapter().snapshot(from: data, at: Self.start)
        } else {
            #expect(QonversionAdapter().recognizes(wire))
            let permission = wire["data"]?["permissions"].flatMap { value -> JSONValue? in
                if case .array(let list) = value { return list.first }
                return nil
            }
            #expect(permission?["active"] == .integer(1))
            #expect(permission?["renew_state"] == .integer(1))
            #expect(permission?["expiration_timestamp"] == .integer(1_740_736_800))
            #expect(wire["data"]?["timestamp"] == .integer(1_738_317_600))
            _ = try QonversionAdapter().snapshot(from: data, at: Self.start)
        }
    }

    @Test(arguments: ProviderID.backends)
    func aDeviceOffTheNetworkGetsOffline(flavour: ProviderID) async throws {
        let backend = Self.backend(flavour)
        await backend.setOnline(false, device: "phone")
        let fetch = await #expect(throws: EntitlementClientError.self) {
            try await backend.provider(device: "phone").snapshot(for: "alice")
        }
        #expect(fetch?.code == .offline)
        let purchase = await #expect(throws: EntitlementClientError.self) {
            try await backend.provider(device: "phone").reportPurchase(Self.buy("monthly", account: "a"), for: "alice")
        }
        #expect(purchase?.code == .offline)
        // Nothing was bought while offline, and another device is unaffected.
        let other = try await backend.provider(device: "tablet").snapshot(for: "alice")
        #expect(other.entitlements.isEmpty)
    }

    @Test(arguments: ProviderID.backends)
    func logInFollowsTheAliasTable(flavour: ProviderID) async throws {
        let backend = Self.backend(flavour)
        let provider = backend.provider()
        let anonymous = provider.makeAnonymousAppUserId()
        _ = try await provider.reportPurchase(Self.buy("monthly", account: "a1"), for: anonymous)
        let created = try await provider.logIn(from: anonymous, to: "alice")
        #expect(created.created)
        #expect(created.snapshot.activeEntitlementIds == ["premium"])
        #expect(await backend.aliases(of: "alice") == [anonymous, "alice"])

        let second = provider.makeAnonymousAppUserId()
        _ = try await provider.reportPurchase(Self.buy("forever", account: "a2"), for: second)
        let noAlias = try await provider.logIn(from: second, to: "alice")
        #expect(!noAlias.created)
        #expect(noAlias.snapshot.activeEntitlementIds == ["premium"])
        #expect(await backend.aliases(of: second) == [second])

        let switched = try await provider.logIn(from: "alice", to: "bob")
        #expect(switched.created)
        #expect(switched.snapshot.activeEntitlementIds.isEmpty)
        #expect(await backend.aliases(of: "bob") == ["bob"])
    }

    @Test(arguments: ProviderID.backends)
    func keepWithOriginalRefusesAndTheNewPurchaseGoesToTheOwner(flavour: ProviderID) async throws {
        let backend = Self.backend(flavour, .keepWithOriginalAppUserId)
        let provider = backend.provider()
        _ = try await provider.reportPurchase(Self.buy("monthly", account: "apple-1"), for: "alice")
        do {
            _ = try await provider.reportPurchase(Self.buy("forever", account: "apple-1"), for: "bob")
            Issue.record("bob's purchase on alice's receipt was accepted")
        } catch {
            #expect(error.code == .receiptInUseByOtherUser)
            // As the live RevenueCat provider reads it (RevenueCatErrorBody.receiptInUseCode).
            #expect(error.vendorCode == (flavour == .revenueCat ? "7102" : nil))
        }
        #expect(try await backend.lookup("alice").activeEntitlementIds.sorted() == ["premium", "pro"])
        #expect(try await backend.lookup("bob").activeEntitlementIds.isEmpty)
    }

    @Test(arguments: ProviderID.backends)
    func idsThatOnlyLookAlikeAreTwoCustomers(flavour: ProviderID) async throws {
        let backend = Self.backend(flavour)
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)  // Swift's String equality; the backend must not use it
        _ = try await backend.provider().reportPurchase(Self.buy("monthly", account: "apple-1"), for: precomposed)
        #expect(try await backend.lookup(precomposed).activeEntitlementIds == ["premium"])
        #expect(try await backend.lookup(decomposed).activeEntitlementIds.isEmpty)
        #expect(await backend.aliases(of: decomposed).map { Array($0.utf8) } == [Array(decomposed.utf8)])
    }

    @Test(arguments: ProviderID.backends)
    func renewalsBillingIssueGraceAndRecovery(flavour: ProviderID) async throws {
        let backend = Self.backend(flavour)
        _ = try await backend.provider().reportPurchase(Self.buy("monthly", account: "apple-1"), for: "alice")
        await backend.advance(by: ISODuration(months: 1))
        #expect(
            try await backend.lookup("alice")["premium"]?.expirationDate == RFC3339.date(from: "2025-03-31T10:00:00Z"))
        await backend.storeEvent(.billingIssue, storeAccount: "apple-1", productId: "monthly")
        let issue = try await backend.lookup("alice")["premium"]
        #expect(issue?.renewState == .billingIssue)
        #expect(issue?.expirationDate == RFC3339.date(from: "2025-04-16T10:00:00Z"))
        await backend.advance(by: ISODuration("P40D") ?? ISODuration())
        await backend.storeEvent(.billingRecovered, storeAccount: "apple-1", productId: "monthly")
        let recovered = try await backend.lookup("alice")["premium"]
        #expect(recovered?.renewState == .willRenew)
        #expect(recovered?.expirationDate == RFC3339.date(from: "2025-04-30T10:00:00Z"))
        await backend.storeEvent(.refund, storeAccount: "apple-1", productId: "monthly")
        await backend.advance(by: ISODuration(milliseconds: 1000))
        #expect(try await backend.lookup("alice").activeEntitlementIds.isEmpty)
    }
}
