import Foundation

/// The provider configuration a client launches with, by storage namespace: the serving backend's, and the
/// shadow's under a ``MigratingProvider``. A migration's stages (shadow started, cut-over, roll-back,
/// retirement) are each a configuration of their own.
///
/// A cache records it at every launch (``EntitlementCache/recordLaunch(_:)``) to tell the client whether
/// purchases need a sync; a cache decorator passes it on unchanged.
public struct LaunchConfiguration: Hashable, Sendable {
    /// The storage namespace of the backend that answers.
    public var serving: String
    /// The storage namespace of the shadow backend during a migration, else `nil`.
    public var shadow: String?

    /// The configuration of a client of `serving`, shadowed by `shadow`.
    public init(serving: String, shadow: String?) {
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

// The package's caches remember the configuration the device last launched under and whether purchases were
// synced since (``EntitlementClient/needsPurchaseSync``): the requirements of ``EntitlementCache``.

extension DirectoryEntitlementCache {
    /// Records a launch under `configuration` in this part's device file; whether purchases need a sync.
    public func recordLaunch(_ configuration: LaunchConfiguration) -> Bool {
        Self.recordLaunch(configuration, in: [self])
    }

    /// Records a sync under `configuration` in this part's device file, unless another launched since.
    public func recordPurchasesSynced(_ configuration: LaunchConfiguration) {
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

extension CutOverCache {
    /// Records the launch in both parts at once when both are directories (under both locks), else in the
    /// serving part.
    package func recordLaunch(_ configuration: LaunchConfiguration) async -> Bool {
        if let serving = serving as? DirectoryEntitlementCache, let shadow = shadow as? DirectoryEntitlementCache {
            return DirectoryEntitlementCache.recordLaunch(configuration, in: [serving, shadow])
        }
        return await serving.recordLaunch(configuration)
    }

    /// Records the sync in both parts at once when both are directories, else in the serving part.
    package func recordPurchasesSynced(_ configuration: LaunchConfiguration) async {
        if let serving = serving as? DirectoryEntitlementCache, let shadow = shadow as? DirectoryEntitlementCache {
            DirectoryEntitlementCache.recordPurchasesSynced(configuration, in: [serving, shadow])
            return
        }
        await serving.recordPurchasesSynced(configuration)
    }
}
