import EntitlementKit
import Foundation
import Testing

/// `needsPurchaseSync`: true at the first launch of each migration stage on a device, until a sync succeeds
/// under it (swap.md "Identity": the app calls `syncPurchases()` once then).
@Suite("The first launch of a new configuration asks for one sync", .timeLimit(.minutes(5)))
struct PurchaseSyncStageTests {
    static let receipt = StoreReceipt(store: .appStore, token: "store-account-1")
    let old = ScriptedProvider("revenuecat", at: CutOverIdentityTests.now)
    let new = ScriptedProvider("qonversion", at: CutOverIdentityTests.now)
    let directory = CutOverIdentityTests.CacheDirectory()

    func launch(_ provider: any EntitlementProvider) async throws -> EntitlementClient {
        try await EntitlementClient(provider: provider, cache: try directory.open())
    }

    /// Launches `provider` and answers whether it asked for a sync; syncs when `syncing`.
    func asks(_ provider: any EntitlementProvider, syncing: Bool = true) async throws -> Bool {
        let client = try await launch(provider)
        let asked = await client.needsPurchaseSync
        if asked && syncing { _ = try await client.syncPurchases(Self.receipt) }
        return asked
    }

    @Test func everyStageAsksOnceAndANewInstallNever() async throws {
        #expect(try await asks(old) == false, "a new install has nothing to sync")
        _ = try await launch(old).logIn("alice")
        #expect(try await asks(old) == false)
        let shadowing = MigratingProvider(serving: old, shadow: new)
        let cutOver = MigratingProvider(serving: new, shadow: old)
        #expect(try await asks(shadowing), "the shadow started")
        #expect(try await asks(shadowing) == false, "synced under it")
        #expect(try await asks(cutOver), "the cut-over")
        #expect(try await asks(cutOver) == false)
        #expect(try await asks(shadowing), "a roll-back")
        #expect(try await asks(cutOver), "the cut-over again")
        #expect(try await asks(new), "the old backend retired")
        #expect(try await asks(new) == false)
    }

    @Test func itAsksUntilASyncSucceedsInAnyProcessSharingTheCache() async throws {
        _ = try await launch(old).logIn("alice")
        let shadowing = MigratingProvider(serving: old, shadow: new)
        #expect(try await asks(shadowing, syncing: false))
        #expect(try await asks(shadowing, syncing: false), "no sync yet: it asks again")
        new.script("alice", .fail(.offline))  // the shadow's failure does not fail the sync
        let app = try await launch(shadowing)
        let appExtension = try await launch(shadowing)
        _ = try await appExtension.restorePurchases(Self.receipt)
        #expect(await appExtension.needsPurchaseSync == false)
        #expect(await app.needsPurchaseSync, "this process's launch asked; a sync now is harmless")
        #expect(try await asks(shadowing) == false, "the next launch knows")
    }

    @Test func anUpgradeFromBeforeRecordsAsksOnlyWhenTheShadowStarts() async throws {
        // A version before these records wrote the customer only; its files have no stage.
        try await directory.open().partition(for: old).storeAppUserId("alice")
        #expect(try await asks(old) == false, "the same backend alone as before")
        let second = CutOverIdentityTests.CacheDirectory()
        try await second.open().partition(for: old).storeAppUserId("alice")
        let client = try await EntitlementClient(
            provider: MigratingProvider(serving: old, shadow: new), cache: try second.open())
        #expect(await client.needsPurchaseSync, "the shadow starts")
    }
}
