import Foundation

/// The provider configuration a client launches with, by storage namespace: the serving backend's, and the
/// shadow's under a ``MigratingProvider``. A migration's stages (shadow started, cut-over, roll-back,
/// retirement) are each a configuration of their own.
struct LaunchConfiguration: Hashable, Sendable {
    var serving: String
    var shadow: String?

    init(serving: String, shadow: String?) {
        self.serving = serving
        self.shadow = shadow
    }

    init(of provider: any EntitlementProvider) {
        self.init(serving: provider.storageNamespace, shadow: provider.shadowStorageNamespace)
    }

    /// Whether purchases need a sync under this configuration, by what one part of the cache recorded: it
    /// last launched under another configuration, or under this one with no sync since. A part with no record
    /// and no customer is a new install (nothing to sync); one with a customer but no record was written
    /// before records were kept, under one backend alone: a new stage only when this is a migration's.
    func needsPurchaseSync(after stage: CacheFileFormat.Stage?, hasCustomer: Bool) -> Bool {
        guard let stage else { return hasCustomer && shadow != nil }
        return stage.configuration != self || !stage.purchasesSynced
    }
}

/// A cache that remembers the configuration the device last launched under and whether purchases were synced
/// since (``EntitlementClient/needsPurchaseSync``). The package's caches are; a cache of another kind is not,
/// and its client never asks for a sync.
protocol LaunchStageRecording: Sendable {
    /// Records a launch under `configuration`, and answers whether purchases need a sync.
    func recordLaunch(_ configuration: LaunchConfiguration) async -> Bool
    /// Records that a sync or restore succeeded under `configuration` (unless another launched since).
    func recordPurchasesSynced(_ configuration: LaunchConfiguration) async
}

extension DirectoryEntitlementCache: LaunchStageRecording {
    func recordLaunch(_ configuration: LaunchConfiguration) -> Bool {
        Self.recordLaunch(configuration, in: [self])
    }

    func recordPurchasesSynced(_ configuration: LaunchConfiguration) {
        Self.recordPurchasesSynced(configuration, in: [self])
    }

    /// Records a launch in every part of `parts` (both parts of a cut-over pair, under both locks): purchases
    /// need a sync when any part says so. A cache that cannot be written still answers.
    nonisolated static func recordLaunch(_ configuration: LaunchConfiguration, in parts: [DirectoryEntitlementCache])
        -> Bool
    {
        var needsSync = false
        do {
            try withLocks(of: parts) { () throws(EntitlementCacheError) in
                let states = parts.map { $0.partState() }
                let hasCustomer = states.contains { $0.appUserId != nil }
                needsSync = states.contains {
                    configuration.needsPurchaseSync(after: $0.file.stage, hasCustomer: hasCustomer)
                }
                let stage = CacheFileFormat.Stage(configuration: configuration, purchasesSynced: !needsSync)
                for (part, state) in zip(parts, states) where state.file.stage != stage {
                    var file = state.file
                    file.stage = stage
                    try part.writeDeviceFile(file)
                }
            }
        } catch {
            parts.first?.logger.log(.warning, "the cache could not record the launch's configuration (\(error.code))")
        }
        return needsSync
    }

    nonisolated static func recordPurchasesSynced(
        _ configuration: LaunchConfiguration, in parts: [DirectoryEntitlementCache]
    ) {
        do {
            try withLocks(of: parts) { () throws(EntitlementCacheError) in
                for part in parts {
                    var file = part.partState().file
                    guard let stage = file.stage, stage.configuration == configuration, !stage.purchasesSynced
                    else { continue }
                    file.stage = CacheFileFormat.Stage(configuration: configuration, purchasesSynced: true)
                    try part.writeDeviceFile(file)
                }
            }
        } catch {
            parts.first?.logger.log(.warning, "the cache could not record the sync (\(error.code))")
        }
    }
}

extension InMemoryEntitlementCache: LaunchStageRecording {}

extension CutOverCache: LaunchStageRecording {
    func recordLaunch(_ configuration: LaunchConfiguration) async -> Bool {
        if let serving = serving as? DirectoryEntitlementCache, let shadow = shadow as? DirectoryEntitlementCache {
            return DirectoryEntitlementCache.recordLaunch(configuration, in: [serving, shadow])
        }
        return await (serving as? any LaunchStageRecording)?.recordLaunch(configuration) ?? false
    }

    func recordPurchasesSynced(_ configuration: LaunchConfiguration) async {
        if let serving = serving as? DirectoryEntitlementCache, let shadow = shadow as? DirectoryEntitlementCache {
            DirectoryEntitlementCache.recordPurchasesSynced(configuration, in: [serving, shadow])
            return
        }
        await (serving as? any LaunchStageRecording)?.recordPurchasesSynced(configuration)
    }
}
