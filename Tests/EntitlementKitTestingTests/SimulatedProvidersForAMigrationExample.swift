// swift-format-ignore-file
// (the examples are kept exactly as the article shows them)
import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

// doc-example: Sources/EntitlementKitTesting/EntitlementKitTesting.docc/SimulatedProvidersForAMigration.md
struct MigrationBackends {
    let old: SimulatedBackend
    let new: SimulatedBackend

    init(start: Date) {
        let products = [
            ScenarioProduct(
                id: "premium_monthly",
                kind: .autoRenewable(period: ISODuration(months: 1), trial: nil, gracePeriod: nil),
                entitlements: ["premium"])
        ]
        old = SimulatedBackend(flavour: .revenueCat, products: products, start: start)
        new = SimulatedBackend(flavour: .adapty, products: products, start: start)
    }

    /// What a device's app is given at each stage: the two backends seen from that device.
    func providers(device: String = "phone") -> (old: SimulatedProvider, new: SimulatedProvider) {
        (old.provider(device: device), new.provider(device: device))
    }
}
// end doc-example

// doc-example: Sources/EntitlementKitTesting/EntitlementKitTesting.docc/SimulatedProvidersForAMigration.md
func purchaseDuringTheShadowReachesTheNewBackend(cacheFolder: URL) async throws -> Bool {
    let backends = MigrationBackends(start: Date(timeIntervalSince1970: 1_750_000_000))
    let (old, new) = backends.providers()
    let migration = MigratingProvider(serving: old, shadow: new)
    let client = try await EntitlementClient(
        provider: migration, cache: try DirectoryEntitlementCache(directory: cacheFolder))
    _ = try await client.logIn("alice")
    let receipt = StoreReceipt(store: .appStore, token: "alice-apple-account")   // the device's store account
    _ = try await client.recordPurchase(StorePurchase(receipt: receipt, productId: "premium_monthly"))
    // The purchase went to the serving backend, then to the shadow: the new backend knows it too.
    return try await backends.new.lookup("alice").isActive("premium")
}
// end doc-example

/// The article's backends and story, run.
@Suite("Simulated providers for a migration (article)", .timeLimit(.minutes(5)))
struct SimulatedProvidersForAMigrationArticleTests {
    @Test func aPurchaseDuringTheShadowReachesTheNewBackend() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-migration-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await purchaseDuringTheShadowReachesTheNewBackend(cacheFolder: folder))
    }

    @Test func eachBackendAnswersInItsOwnFlavour() {
        let (old, new) = MigrationBackends(start: Date(timeIntervalSince1970: 1_750_000_000)).providers()
        #expect(old.provider == .revenueCat)
        #expect(new.provider == .adapty)
        #expect(old.isAnonymous(old.makeAnonymousAppUserId()))
    }
}
