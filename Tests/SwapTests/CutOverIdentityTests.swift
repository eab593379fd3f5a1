import EntitlementKit
import Foundation
import Testing

/// A cut-over or roll-back is a configuration change (swap.md): the device keeps its customer across it, on
/// a real cache directory, and never takes up the other backend's anonymous id.
@Suite("Cut-over and roll-back keep the customer", .timeLimit(.minutes(5)))
struct CutOverIdentityTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// A fresh cache directory, removed when the test ends.
    final class CacheDirectory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CutOverIdentityTests-" + UUID().uuidString, isDirectory: true)

        deinit { try? FileManager.default.removeItem(at: url) }

        /// A new cache over the directory, as a relaunched app opens it.
        func open() throws -> DirectoryEntitlementCache {
            try DirectoryEntitlementCache(directory: url)
        }
    }

    let old = ScriptedProvider("revenuecat", at: now)
    let new = ScriptedProvider("qonversion", at: now)

    func launch(_ provider: any EntitlementProvider, on directory: CacheDirectory) async throws -> EntitlementClient {
        try await EntitlementClient(provider: provider, cache: try directory.open())
    }

    @Test func theCustomerStaysAcrossShadowCutOverRollBackAndRetirement() async throws {
        let directory = CacheDirectory()
        let alone = try await launch(old, on: directory)
        _ = try await alone.logIn("alice")

        let shadowing = try await launch(MigratingProvider(serving: old, shadow: new), on: directory)
        #expect(await shadowing.appUserId == "alice", "starting the shadow keeps the customer")

        let cutOver = try await launch(MigratingProvider(serving: new, shadow: old), on: directory)
        #expect(await cutOver.appUserId == "alice", "the cut-over keeps the customer")
        try await cutOver.logOut()
        _ = try await cutOver.logIn("bob")

        let rolledBack = try await launch(MigratingProvider(serving: old, shadow: new), on: directory)
        #expect(await rolledBack.appUserId == "bob", "a roll-back shows the customer of now, not the one before")

        let retired = try await launch(new, on: directory)
        #expect(await retired.appUserId == "bob", "the new backend alone keeps the customer")
    }

    @Test func anIdLeftInTheNewBackendsPartBeforeTheShadowDoesNotComeBackAtTheCutOver() async throws {
        let directory = CacheDirectory()
        _ = try await launch(new, on: directory).logIn("zed")  // the new backend, tried alone long ago
        _ = try await launch(old, on: directory).logIn("alice")
        _ = try await launch(MigratingProvider(serving: old, shadow: new), on: directory)
        let cutOver = try await launch(MigratingProvider(serving: new, shadow: old), on: directory)
        #expect(await cutOver.appUserId == "alice")
    }

    @Test func skippingTheShadowStageStillKeepsTheCustomerThroughRetirement() async throws {
        let directory = CacheDirectory()
        _ = try await launch(old, on: directory).logIn("alice")
        let cutOver = try await launch(MigratingProvider(serving: new, shadow: old), on: directory)
        #expect(await cutOver.appUserId == "alice")
        let retired = try await launch(new, on: directory)
        #expect(await retired.appUserId == "alice")
    }

    @Test func theShadowStagesAnonymousIdNeverBecomesALoggedInCustomerOfTheNewBackendAlone() async throws {
        let directory = CacheDirectory()
        let shadowing = try await launch(MigratingProvider(serving: old, shadow: new), on: directory)
        #expect(await shadowing.isAnonymous)
        let alone = try await launch(new, on: directory)
        #expect(await alone.isAnonymous, "the old backend's anonymous id is no customer of the new one")
    }

    @Test func aLogOutByAProcessOnTheSwappedConfigurationIsFollowed() async throws {
        let directory = CacheDirectory()
        _ = try await launch(old, on: directory).logIn("alice")
        let app = try await launch(MigratingProvider(serving: old, shadow: new), on: directory)
        let updatedExtension = try await launch(MigratingProvider(serving: new, shadow: old), on: directory)
        #expect(await updatedExtension.appUserId == "alice")
        try await updatedExtension.logOut()
        _ = await app.checkEntitlements(.fetchCurrent)
        #expect(await app.isAnonymous, "alice logged out on this device")
    }

    @Test func theOldBackendsAnonymousIdIsNotTakenUpAfterTheCutOver() async throws {
        let directory = CacheDirectory()
        let shadowing = try await launch(MigratingProvider(serving: old, shadow: new), on: directory)
        let oldAnonymous = await shadowing.appUserId
        #expect(old.isAnonymous(oldAnonymous))

        let cutOver = try await launch(MigratingProvider(serving: new, shadow: old), on: directory)
        #expect(await cutOver.isAnonymous, "a new anonymous customer of the serving backend's own")
        #expect(await cutOver.appUserId != oldAnonymous)

        let relaunched = try await launch(MigratingProvider(serving: new, shadow: old), on: directory)
        #expect(await relaunched.appUserId == cutOver.appUserId)
    }

    @Test func answersStayWithTheBackendThatGaveThem() async throws {
        let directory = CacheDirectory()
        old.script("alice", .answer([MigratingProviderTests.entitlement("premium", expires: nil)]))
        let shadowing = try await launch(MigratingProvider(serving: old, shadow: new), on: directory)
        _ = try await shadowing.logIn("alice")
        #expect(await shadowing.checkEntitlements(.fetchCurrent).snapshot?.provider == .revenueCat)

        let cutOver = try await launch(MigratingProvider(serving: new, shadow: old), on: directory)
        #expect(await cutOver.appUserId == "alice")
        let cached = await cutOver.checkEntitlements(.fromCacheOnly)
        #expect(cached.snapshot == nil, "the old backend's answer is not served as the new one's")
    }
}
