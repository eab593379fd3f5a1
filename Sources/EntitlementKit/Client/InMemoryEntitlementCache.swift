import Foundation

/// A cache that lives as long as the instance: for tests, for scenario devices (keep one instance across
/// "relaunches"), and for apps that want nothing on disk.
///
/// It is one store for one client: ``partition(for:)`` is the cache itself, so give each client (each
/// backend) an instance of its own. ``DirectoryEntitlementCache`` is the one to share.
public actor InMemoryEntitlementCache: EntitlementCache {
    // Keyed by the id's bytes: canonically equivalent ids are different customers to a backend.
    private var entries: [AppUserIdKey: EntitlementCacheEntry] = [:]
    private var appUserId: String?
    private var floor: Date?
    private var stage: CacheFileFormat.Stage?

    /// An empty cache.
    public init() {}

    /// The entry for `appUserId`.
    public func entry(for appUserId: String) -> EntitlementCacheEntry? {
        entries[AppUserIdKey(appUserId)]
    }

    /// Stores `entry` for `appUserId`; never fails.
    public func store(_ entry: EntitlementCacheEntry, for appUserId: String) {
        entries[AppUserIdKey(appUserId)] = entry
    }

    /// Removes the entry for `appUserId`.
    public func removeEntry(for appUserId: String) {
        entries[AppUserIdKey(appUserId)] = nil
    }

    /// The stored app user id.
    public func storedAppUserId() -> String? {
        appUserId
    }

    /// Stores the app user id; never fails.
    public func storeAppUserId(_ appUserId: String) {
        self.appUserId = appUserId
    }

    /// The stored floor.
    public func trustedFloor() -> Date? {
        floor
    }

    /// Stores the floor; never fails.
    public func storeTrustedFloor(_ floor: Date) {
        self.floor = floor
    }

    /// Records a launch under `configuration` (see ``EntitlementClient/needsPurchaseSync``).
    public func recordLaunch(_ configuration: LaunchConfiguration) -> Bool {
        let needsSync = configuration.needsPurchaseSync(after: stage, hasCustomer: appUserId != nil)
        stage = CacheFileFormat.Stage(configuration: configuration, purchasesSynced: !needsSync)
        return needsSync
    }

    /// Records a sync under `configuration`, unless another configuration launched since.
    public func recordPurchasesSynced(_ configuration: LaunchConfiguration) {
        guard stage?.configuration == configuration else { return }
        stage?.purchasesSynced = true
    }

    /// The app user ids that have an entry, sorted (for tests and diagnostics).
    public func appUserIdsWithEntries() -> [String] {
        entries.keys.map(\.appUserId).sorted()
    }
}
