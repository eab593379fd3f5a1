import Foundation

/// The cache a client of a ``MigratingProvider`` uses: entries in the serving backend's part, the stored app
/// user id and the floor in both backends' parts.
///
/// A cut-over or roll-back swaps the two backends, and so the part the client's entries live in; the customer
/// must not change with it. Keeping the stored id in both parts means the swapped configuration finds the
/// customer the device last had (not an id left there before the swap, and not a new anonymous one), and
/// so does the new backend alone once the old one is retired. An id in the shadow's anonymous form is never
/// taken up: the serving backend cannot know that anonymous person, so the client starts a new one of its
/// own.
struct CutOverCache: EntitlementCache {
    let serving: any EntitlementCache
    let shadow: any EntitlementCache
    let servingProvider: any EntitlementProvider
    let shadowProvider: any EntitlementProvider

    /// Already the part for the provider.
    func partition(for provider: any EntitlementProvider) -> any EntitlementCache { self }

    func sharedStateStamp() -> CacheStamp? { serving.sharedStateStamp() }

    func entry(for appUserId: String) async -> EntitlementCacheEntry? {
        await serving.entry(for: appUserId)
    }

    func store(_ entry: EntitlementCacheEntry, for appUserId: String) async throws(EntitlementCacheError) {
        try await serving.store(entry, for: appUserId)
    }

    func removeEntry(for appUserId: String) async {
        await serving.removeEntry(for: appUserId)
    }

    /// The serving part's stored id, else the shadow part's (the configuration before a swap wrote both;
    /// one before migrating wrote the serving backend's alone), unless it is in the shadow's anonymous form.
    func storedAppUserId() async -> String? {
        var stored = await serving.storedAppUserId()
        if stored == nil { stored = await shadow.storedAppUserId() }
        guard let stored, !isShadowsAnonymousId(stored) else { return nil }
        return stored
    }

    /// Stores the id in both parts: serving first, as a client without the shadow would.
    func storeAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        try await serving.storeAppUserId(appUserId)
        try await shadow.storeAppUserId(appUserId)
    }

    /// The later of the two parts' floors: either may hold the newest server time the device has seen.
    func trustedFloor() async -> Date? {
        let servingFloor = await serving.trustedFloor()
        let shadowFloor = await shadow.trustedFloor()
        return [servingFloor, shadowFloor].compactMap(\.self).max()
    }

    func storeTrustedFloor(_ floor: Date) async throws(EntitlementCacheError) {
        try await serving.storeTrustedFloor(floor)
        try await shadow.storeTrustedFloor(floor)
    }

    /// Copies the id the client starts with into the shadow's part when it is not there yet (a client that
    /// served one backend alone before wrote only that backend's part), so a later swap finds it.
    func recordStartingAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        if let stored = await shadow.storedAppUserId(), stored.isSameAppUserId(as: appUserId) { return }
        try await shadow.storeAppUserId(appUserId)
    }

    private func isShadowsAnonymousId(_ appUserId: String) -> Bool {
        shadowProvider.isAnonymous(appUserId) && !servingProvider.isAnonymous(appUserId)
    }
}

extension MigratingProvider {
    /// The part of `cache` a client of this provider uses (see ``CutOverCache``); the serving backend's part
    /// alone when both backends share one namespace.
    nonisolated func clientCache(in cache: any EntitlementCache) -> any EntitlementCache {
        let servingPart = cache.partition(for: serving)
        guard serving.storageNamespace != shadow.storageNamespace else { return servingPart }
        return CutOverCache(
            serving: servingPart, shadow: cache.partition(for: shadow), servingProvider: serving,
            shadowProvider: shadow)
    }
}
