import EntitlementKit
import EntitlementKitLedger
import EntitlementKitOwnBackend
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// The app's `EntitlementClient` through `OwnBackendProvider` against a loopback server running the
/// article's handler code over a real `EntitlementLedger` (Google Play source).
@Suite(.timeLimit(.minutes(5))) struct LedgerBackedTests {
    static let start = instant("2025-09-10T12:00:00Z")
    static let firstExpiry = "2025-10-01T00:00:00Z"
    static let renewedExpiry = "2025-11-01T00:00:00Z"
    static func purchase(_ token: String) -> StorePurchase {
        StorePurchase(receipt: StoreReceipt(store: .playStore, token: token), productId: "premium_monthly")
    }

    @Test func aPurchaseARenewalPushedByGoogleAndARefundReachTheApp() async throws {
        let world = try LedgerBackedServer(start: Self.start)
        world.play.set("token-1", PlayStoreDouble.subscription(expires: Self.firstExpiry))
        let client = try await world.client()
        let bought = try await client.recordPurchase(Self.purchase("token-1"))
        #expect(bought.activeEntitlementIds == ["premium"])
        #expect(bought["premium"]?.expirationDate == RFC3339.date(from: Self.firstExpiry))
        #expect(bought.provider == .ledger)

        // Google renews and says only that the purchase changed: the server fetches it.
        world.play.set("token-1", PlayStoreDouble.subscription(expires: Self.renewedExpiry))
        #expect(try await world.push(PlayStoreDouble.renewed("token-1", messageId: "m-1")) == (200, "applied"))
        #expect(try await world.push(PlayStoreDouble.renewed("token-1", messageId: "m-1")) == (200, "duplicate"))
        world.clock.set(instant("2025-10-15T00:00:00Z"))
        let renewed = await client.checkEntitlements(.fetchCurrent)
        #expect(renewed.source == .network)
        #expect(renewed.isActive("premium"))
        #expect(renewed.snapshot?["premium"]?.expirationDate == RFC3339.date(from: Self.renewedExpiry))

        // A full refund: the push is not authenticated here, so it asks for a refresh, and Google's API shows
        // the purchase ended.
        world.play.set(
            "token-1",
            PlayStoreDouble.subscription(expires: "2025-10-14T00:00:00Z", state: "SUBSCRIPTION_STATE_EXPIRED"))
        #expect(try await world.push(PlayStoreDouble.voided("token-1", messageId: "m-2")) == (200, "applied"))
        let refunded = await client.checkEntitlements(.fetchCurrent)
        #expect(refunded.error == nil)
        #expect(!refunded.isActive("premium"))
    }

    @Test func anAnonymousBuyerWhoLogsInKeepsThePurchase() async throws {
        let world = try LedgerBackedServer(start: Self.start)
        world.play.set("token-1", PlayStoreDouble.subscription(expires: Self.firstExpiry))
        let client = try await world.client()
        let anonymous = await client.appUserId
        #expect(await client.isAnonymous)
        _ = try await client.recordPurchase(Self.purchase("token-1"))
        let logIn = try await client.logIn("alice")
        #expect(logIn.created)
        #expect(logIn.snapshot.appUserId == "alice")
        #expect(logIn.snapshot.activeEntitlementIds == ["premium"])
        #expect(try await world.ledger.customers() == [[anonymous, "alice"]])
        // A second device of alice's reads the same customer.
        let other = try await world.client(appUserId: "alice")
        #expect(await other.checkEntitlements().isActive("premium"))
    }

    @Test func aRestoreOnAnotherAccountTransfersByDefault() async throws {
        let world = try LedgerBackedServer(start: Self.start)
        world.play.set("token-1", PlayStoreDouble.subscription(expires: Self.firstExpiry))
        let alice = try await world.client(appUserId: "alice")
        _ = try await alice.recordPurchase(Self.purchase("token-1"))
        let bob = try await world.client(appUserId: "bob")
        let restored = try await bob.restorePurchases(StoreReceipt(store: .playStore, token: "token-1"))
        #expect(restored.activeEntitlementIds == ["premium"])
        #expect(!(await alice.checkEntitlements(.fetchCurrent).isActive("premium")))
    }

    @Test func keepWithOriginalAppUserIdAnswersReceiptInUse() async throws {
        let world = try LedgerBackedServer(restoreBehavior: .keepWithOriginalAppUserId, start: Self.start)
        world.play.set("token-1", PlayStoreDouble.subscription(expires: Self.firstExpiry))
        let alice = try await world.client(appUserId: "alice")
        _ = try await alice.recordPurchase(Self.purchase("token-1"))
        let bob = try await world.client(appUserId: "bob")
        let refused = await failure {
            try await bob.restorePurchases(StoreReceipt(store: .playStore, token: "token-1"))
        }
        #expect(refused?.code == .receiptInUseByOtherUser)
        #expect(refused?.message.contains("alice") == false, "the owner's id is never told to another customer")
        #expect(!(await bob.checkEntitlements(.fetchCurrent).isActive("premium")))
        #expect(await alice.checkEntitlements(.fetchCurrent).isActive("premium"))
    }

    @Test func aTestPurchaseNeverGrantsProductionAccess() async throws {
        let world = try LedgerBackedServer(start: Self.start)
        world.play.set("test-token", PlayStoreDouble.subscription(expires: Self.firstExpiry, isTest: true))
        let client = try await world.client(appUserId: "alice")
        let refused = await failure { try await client.recordPurchase(Self.purchase("test-token")) }
        #expect(refused?.code == .badResponse)
        #expect(refused?.httpStatus == 422)
        #expect(!(await client.checkEntitlements(.fetchCurrent).isActive("premium")))
    }

    @Test func foreignNotificationsAndOtherCustomersSessionsAreRefused() async throws {
        let world = try LedgerBackedServer(start: Self.start)
        world.play.set("token-1", PlayStoreDouble.subscription(expires: Self.firstExpiry))
        let foreign = PlayStoreDouble.renewed("token-1", messageId: "m-9", package: "com.example.other")
        #expect(try await world.push(foreign).status == 422)
        #expect(try await world.ledger.customers().isEmpty)
        // Bob's session asking for alice's entitlements.
        let configuration = try OwnBackendProvider.Configuration(baseURL: world.server.baseURL)
        let impostor = OwnBackendProvider(configuration: configuration) { _ in
            ["Authorization": "Bearer session-of-bob"]
        }
        let refused = await failure { try await impostor.snapshot(for: "alice") }
        #expect(refused?.code == .credentialsRefused)
        #expect(refused?.httpStatus == 401)
    }

    @Test func aCustomerTheLedgerDoesNotKnowHasAnEmptySnapshotOfTheirOwn() async throws {
        let world = try LedgerBackedServer(start: Self.start)
        let provider = try world.provider()
        let snapshot = try await provider.snapshot(for: "a b/c".replacingOccurrences(of: "/", with: "?"))
        #expect(snapshot.appUserId == "a b?c")
        #expect(snapshot.entitlements.isEmpty)
    }
}
