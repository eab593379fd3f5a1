// swift-format-ignore-file
// (the example is kept exactly as the article shows it)
import EntitlementKit
import Foundation
import Testing

// doc-example: Sources/EntitlementKit/Documentation.docc/MigratingBetweenBackends.md
/// The app's entitlements during a migration from `old` to `new`.
enum MigrationStage: String {
    case shadow      // weeks 1–4: old serves, new is compared
    case eitherGrants // the cut-over window: access when either backend grants it
    case cutOver     // new serves, old is compared: rolling back is setting `shadow` again
    case retired     // the old backend is gone
}

func makeEntitlements(
    stage: MigrationStage, old: any EntitlementProvider, new: any EntitlementProvider, cacheFolder: URL
) async throws -> (client: EntitlementClient, migration: MigratingProvider?) {
    let cache = try DirectoryEntitlementCache(directory: cacheFolder)
    let options = SnapshotDiff.Options(expiryTolerance: 60)  // renewals land seconds apart on two backends
    let migration: MigratingProvider?
    switch stage {
    case .shadow:
        migration = MigratingProvider(serving: old, shadow: new, comparison: options)
    case .eitherGrants:
        migration = MigratingProvider(serving: old, shadow: new, policy: .eitherGrants, comparison: options)
    case .cutOver:
        migration = MigratingProvider(serving: new, shadow: old, comparison: options)
    case .retired:
        migration = nil
    }
    let client = try await EntitlementClient(provider: migration ?? new, cache: cache)
    return (client, migration)
}

/// Sends every report to your analytics and counts it on the device, across launches.
func watchShadow(
    _ migration: MigratingProvider, tallies: ShadowTallyStore, send: @escaping @Sendable (String) -> Void
) -> Task<Void, Never> {
    Task {
        for await report in migration.reports {
            send(ShadowReportRecord(report).jsonLine)   // no app user id, key or field value
            try? await tallies.record(report)
        }
    }
}

/// This device's evidence; the decision reads every device's with `entitlements shadow-report`.
func readyToCutOver(_ migration: MigratingProvider, tallies: ShadowTallyStore) async -> Bool {
    let tally = await tallies.tally(serving: migration.serving.provider, shadow: migration.shadow.provider)
    // Thousands of comparisons, almost no access difference, and a shadow that rarely fails.
    return tally.comparisons >= 10_000 && tally.accessDifferenceRate <= 0.001
        && tally.failures * 100 < tally.comparisons
}
// end doc-example

// doc-example: Sources/EntitlementKit/Documentation.docc/MigratingBetweenBackends.md
/// At every launch, once the client is configured: posts the store's receipt at the first launch of a
/// migration stage, so purchases the new backend never heard of reach it.
func syncAtANewStage(_ client: EntitlementClient, receipt: StoreReceipt) async {
    guard await client.needsPurchaseSync else { return }
    do {
        _ = try await client.syncPurchases(receipt)
    } catch {
        // Offline or refused: needsPurchaseSync stays true, and the next launch tries again.
    }
}
// end doc-example

/// The article's example, run over two scripted backends and a real cache folder.
@Suite("The migration article's example", .timeLimit(.minutes(5)))
struct MigrationArticleExampleTests {
    @Test func eachStageServesTheBackendTheArticleSays() async throws {
        let now = Date()
        let old = ScriptedProvider("revenuecat", at: now)
        let new = ScriptedProvider("qonversion", at: now)
        let premium = Entitlement(id: "premium", renewState: .willRenew, expirationDate: now.addingTimeInterval(86_400), at: now)
        old.script("alice", .answer([premium]))
        new.script("alice", .answer([]))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        for (stage, serving) in [(MigrationStage.shadow, ProviderID.revenueCat), (.cutOver, .qonversion), (.retired, .qonversion)] {
            let stageFolder = folder.appendingPathComponent(stage.rawValue)
            try FileManager.default.createDirectory(at: stageFolder, withIntermediateDirectories: true)
            let (client, migration) = try await makeEntitlements(stage: stage, old: old, new: new, cacheFolder: stageFolder)
            _ = try await client.logIn("alice")
            let check = await client.checkEntitlements(.fetchCurrent)
            #expect(check.snapshot?.provider == serving, "\(stage)")
            #expect(check.isActive("premium") == (serving == .revenueCat), "\(stage)")
            #expect((migration == nil) == (stage == .retired))
            if let migration {
                let tallies = ShadowTallyStore(cache: try DirectoryEntitlementCache(directory: stageFolder))
                try await tallies.add(migration.tally, serving: migration.serving.provider, shadow: migration.shadow.provider)
                #expect(await readyToCutOver(migration, tallies: tallies) == false, "one comparison is not enough")
                #expect(await migration.tally.accessDifferences >= 1, "the backends disagree on premium")
            }
        }

        try await theGateReadsThePersistedTallyAtTheArticlesBounds(folder: folder)
        // The first launch of a stage syncs once; the next launch of the same stage does not.
        let receipt = StoreReceipt(store: .appStore, token: "store-account-1")
        let syncFolder = folder.appendingPathComponent("sync")
        _ = try await makeEntitlements(stage: .retired, old: old, new: old, cacheFolder: syncFolder).client.logIn("alice")
        let shadowing = try await makeEntitlements(stage: .shadow, old: old, new: new, cacheFolder: syncFolder).client
        await syncAtANewStage(shadowing, receipt: receipt)
        #expect(old.callLog.last == "sync store-account-1 alice" && new.callLog.last == "sync store-account-1 alice")
        let relaunched = try await makeEntitlements(stage: .shadow, old: old, new: new, cacheFolder: syncFolder).client
        #expect(await relaunched.needsPurchaseSync == false)

        let (either, _) = try await makeEntitlements(stage: .eitherGrants, old: new, new: old, cacheFolder: folder)
        _ = try await either.logIn("alice")
        #expect(await either.checkEntitlements(.fetchCurrent).isActive("premium"), "either backend grants it")
    }

    /// 10,000 comparisons with 10 access differences (a rate of 0.001) pass; one more access difference, or a
    /// relaunch that kept nothing, does not. The tally is read back from disk by a new store.
    func theGateReadsThePersistedTallyAtTheArticlesBounds(folder: URL) async throws {
        let now = Date()
        let migration = MigratingProvider(
            serving: ScriptedProvider("revenuecat", at: now), shadow: ScriptedProvider("qonversion", at: now))
        let gateFolder = folder.appendingPathComponent("gate")
        #expect(await readyToCutOver(migration, tallies: ShadowTallyStore(cache: try DirectoryEntitlementCache(directory: gateFolder))) == false)
        var evidence = ShadowTally()
        evidence.agreed = 9_990
        evidence.accessDifferences = 10
        try await ShadowTallyStore(cache: try DirectoryEntitlementCache(directory: gateFolder))
            .add(evidence, serving: .revenueCat, shadow: .qonversion)
        let relaunched = ShadowTallyStore(cache: try DirectoryEntitlementCache(directory: gateFolder))
        #expect(await readyToCutOver(migration, tallies: relaunched))
        var oneMore = ShadowTally()
        oneMore.accessDifferences = 1
        try await relaunched.add(oneMore, serving: .revenueCat, shadow: .qonversion)
        #expect(await readyToCutOver(migration, tallies: relaunched) == false, "11 in 10,001 is over 0.001")
    }
}
