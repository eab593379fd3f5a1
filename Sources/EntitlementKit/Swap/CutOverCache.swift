import Foundation

/// The cache a client of a ``MigratingProvider`` uses: entries in the serving backend's part, the stored app
/// user id and the floor in both backends' parts.
///
/// A cut-over or roll-back swaps the two backends, and so the part the client's entries live in; the customer
/// must not change with it. Keeping the stored id in both parts means the swapped configuration finds the
/// customer the device last had (not an id left there before the swap, and not a new anonymous one), and
/// so does either backend alone, before the shadow started or once the old one is retired. Each part only
/// ever holds an id its own backend can use: while the customer is anonymous, the shadow's part holds an
/// anonymous id of the shadow's own form, never the serving backend's (which the shadow, or a client of it
/// alone, would take for a logged-in customer).
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

    /// Removes the entry from both parts: an entry the other part kept from an earlier stage must not come
    /// back after a swap for a customer who has since left.
    func removeEntry(for appUserId: String) async {
        await serving.removeEntry(for: appUserId)
        await shadow.removeEntry(for: appUserId)
    }

    /// The serving part's stored id, else the shadow part's (a client of the shadow's backend alone wrote
    /// only that one), unless it is in the shadow's anonymous form: the serving backend cannot know that
    /// anonymous person.
    func storedAppUserId() async -> String? {
        var stored = await serving.storedAppUserId()
        if stored == nil { stored = await shadow.storedAppUserId() }
        guard let stored, !isShadowsAnonymousId(stored) else { return nil }
        return stored
    }

    /// Stores the id in both parts, serving first as a client without the shadow would; the shadow's part
    /// gets an anonymous id of its own form when `appUserId` is the serving backend's anonymous one.
    func storeAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        try await serving.storeAppUserId(appUserId)
        try await shadow.storeAppUserId(shadowsForm(of: appUserId, replacing: nil))
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

    /// Makes both parts hold the id the client starts with (in the shadow's part, its own form): a client of
    /// one backend alone wrote only that backend's part, and a later swap or retirement reads the other.
    func recordStartingAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        let inServing = await serving.storedAppUserId()
        if !(inServing.map(appUserId.isSameAppUserId(as:)) ?? false) { try await serving.storeAppUserId(appUserId) }
        let inShadow = await shadow.storedAppUserId()
        let wanted = shadowsForm(of: appUserId, replacing: inShadow)
        if !(inShadow.map(wanted.isSameAppUserId(as:)) ?? false) { try await shadow.storeAppUserId(wanted) }
    }

    /// The id the shadow's part holds for `appUserId`: the id itself, or, for the serving backend's anonymous
    /// id, an anonymous id of the shadow's form (`current` when it already is one, so a launch writes nothing).
    private func shadowsForm(of appUserId: String, replacing current: String?) -> String {
        guard servingProvider.isAnonymous(appUserId), !shadowProvider.isAnonymous(appUserId) else { return appUserId }
        if let current, shadowProvider.isAnonymous(current) { return current }
        return shadowProvider.makeAnonymousAppUserId()
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
