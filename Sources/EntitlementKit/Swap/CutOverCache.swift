import Foundation

/// The cache a client of a ``MigratingProvider`` uses: entries in the serving backend's part, the device's
/// customer (the stored app user id) and the floor in both backends' parts.
///
/// A cut-over or roll-back swaps the two backends, and so the part the client's entries live in; the customer
/// must not change with it. Keeping the stored id in both parts means the swapped configuration finds the
/// customer the device last had (not an id left there before the swap, and not a new anonymous one), and
/// so does either backend alone, before the shadow started or once the old one is retired. Each part only
/// ever holds an id its own backend can use: while the customer is anonymous, the shadow's part holds an
/// anonymous id of the shadow's own form, never the serving backend's (which the shadow, or a client of it
/// alone, would take for a logged-in customer). The shadow hears of that anonymous customer's writes under
/// that id (``MigratingProvider`` is told the pair).
///
/// **One change for both parts.** In a ``DirectoryEntitlementCache`` the two parts' customer changes as one:
/// - a write holds both parts' locks on disk at once, reads both, and writes both, each stamped with one
///   sequence number, higher than either part held, and naming the id the other part got (its
///   counterpart). Two processes on the same configuration or on opposite ones (an app and its extension
///   one release apart) never interleave inside it.
/// - a reader takes the part with the higher sequence (the serving part on a tie) and the other part's id
///   from its counterpart: a writer killed between the two parts left one part newer, and that part holds
///   the whole change. The change is made when the first part is in place, as a client of one backend's
///   is when its one file is.
/// - a part written by a client of its backend alone is newer than any pair write before it, and has no
///   counterpart: the other part's id follows from it (a logged-in id is the same; an anonymous one pairs
///   with a new anonymous id of the other's form).
/// - the floor is raised in both parts under both locks, to the higher of the two, never lowered.
///
/// A cache of another kind gets the two parts' writes one after the other.
package struct CutOverCache: EntitlementCache {
    let serving: any EntitlementCache
    let shadow: any EntitlementCache
    let provider: MigratingProvider

    private var servingProvider: any EntitlementProvider { provider.serving }
    private var shadowProvider: any EntitlementProvider { provider.shadow }

    /// Both parts on disk, when both are a ``DirectoryEntitlementCache``'s: then they change as one.
    private var directories: (serving: DirectoryEntitlementCache, shadow: DirectoryEntitlementCache)? {
        guard let serving = serving as? DirectoryEntitlementCache, let shadow = shadow as? DirectoryEntitlementCache
        else { return nil }
        return (serving, shadow)
    }

    /// Already the part for the provider.
    package func partition(for provider: any EntitlementProvider) -> any EntitlementCache { self }

    /// Both parts' stamps: a writer on the opposite configuration killed after its first part changed only
    /// this client's shadow part, and that part is then the newer one.
    package func sharedStateStamp() -> CacheStamp? {
        let stamps = [serving.sharedStateStamp(), shadow.sharedStateStamp()]
        guard stamps.contains(where: { $0 != nil }) else { return nil }
        return CacheStamp(combining: stamps)
    }

    package func entry(for appUserId: String) async -> EntitlementCacheEntry? {
        await serving.entry(for: appUserId)
    }

    package func store(_ entry: EntitlementCacheEntry, for appUserId: String) async throws(EntitlementCacheError) {
        try await serving.store(entry, for: appUserId)
    }

    /// Removes the entry from both parts: an entry the other part kept from an earlier stage must not come
    /// back after a swap for a customer who has since left.
    package func removeEntry(for appUserId: String) async {
        await serving.removeEntry(for: appUserId)
        await shadow.removeEntry(for: appUserId)
    }

    /// The device's customer in the serving backend's form: `nil` when it is an anonymous customer of the
    /// shadow's form only (the serving backend cannot know that anonymous person; a new one is paired with it).
    package func storedAppUserId() async -> String? {
        let pair = await currentPair()
        await tellProvider(pair)
        return pair.serving
    }

    /// Makes `appUserId` the device's customer in both parts, as one change; the shadow's part gets an
    /// anonymous id of its own form when `appUserId` is the serving backend's anonymous one (the one it already
    /// has when the customer stays the same anonymous person).
    package func storeAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        let pair: Pair
        if let directories {
            pair = try write(appUserId, in: directories, unlessChangedFrom: nil)
        } else {
            let current = await currentPair()
            pair = Pair(serving: appUserId, shadow: shadowsForm(of: appUserId, current: current))
            try await serving.storeAppUserId(appUserId)
            try await shadow.storeAppUserId(shadowsForm(of: appUserId, current: current))
        }
        await tellProvider(pair)
    }

    /// Makes both parts hold the customer the client starts with, `appUserId`, which it read from the cache: a
    /// client of one backend alone wrote only its own part, and a writer killed between the parts left the
    /// other one behind. Nothing is written when both parts already agree, nor when another process has
    /// changed the customer since it was read (that change stands; the client follows it at its next check).
    package func recordStartingAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {
        if let directories {
            let pair = try write(appUserId, in: directories, unlessChangedFrom: appUserId)
            await tellProvider(pair)
            return
        }
        let current = await currentPair()
        guard let servingId = current.serving, servingId.isSameAppUserId(as: appUserId) else { return }
        if await serving.storedAppUserId().map(appUserId.isSameAppUserId(as:)) != true {
            try await serving.storeAppUserId(appUserId)
        }
        let shadowId = shadowsForm(of: appUserId, current: current)
        if !Self.same(current.shadow, shadowId) {
            try await shadow.storeAppUserId(shadowId)
        }
        await tellProvider(Pair(serving: appUserId, shadow: shadowId))
    }

    /// The higher of the two parts' floors: either may hold the newest server time the device has seen.
    package func trustedFloor() async -> Date? {
        if let directories {
            return [directories.serving.partState().trustedFloor, directories.shadow.partState().trustedFloor]
                .compactMap(\.self).max()
        }
        let servingFloor = await serving.trustedFloor()
        let shadowFloor = await shadow.trustedFloor()
        return [servingFloor, shadowFloor].compactMap(\.self).max()
    }

    /// Raises both parts' floors to `floor`, or to the higher one either already holds: never lowered.
    package func storeTrustedFloor(_ floor: Date) async throws(EntitlementCacheError) {
        guard let directories else {
            try await serving.storeTrustedFloor(floor)
            try await shadow.storeTrustedFloor(floor)
            return
        }
        try DirectoryEntitlementCache.withLocks(of: directories.serving, and: directories.shadow) {
            () throws(EntitlementCacheError) in
            let parts = [directories.serving, directories.shadow]
            let states = parts.map { $0.partState() }
            let highest = ([floor] + states.compactMap(\.trustedFloor)).max() ?? floor
            for (part, state) in zip(parts, states) where state.file.trustedFloor.map({ $0 < highest }) ?? true {
                var file = state.file
                file.trustedFloor = highest
                try part.writeDeviceFile(file)
            }
        }
    }

    // MARK: The pair

    /// The device's customer in each part's form, as both parts give it now (`nil`: that part's id is not known).
    struct Pair: Equatable {
        var serving: String?
        var shadow: String?
    }

    /// What the two parts say, read as described in ``CutOverCache``.
    private func currentPair() async -> Pair {
        if let directories {
            return resolve(
                serving: Self.record(directories.serving.partState()),
                shadow: Self.record(directories.shadow.partState()))
        }
        // Without sequences: the serving part's id, else the shadow part's.
        return resolve(
            serving: PartRecord(appUserId: await serving.storedAppUserId()),
            shadow: PartRecord(appUserId: await shadow.storedAppUserId()))
    }

    /// One part's identity as the pair reads it.
    private struct PartRecord {
        var appUserId: String?
        var sequence: Int64 = 0
        var counterpart: CacheFileFormat.Counterpart?

        /// The id this part's write gave the part of `namespace`, if it was a pair write.
        func counterpartId(in namespace: String) -> String? {
            guard let counterpart, counterpart.namespace == namespace else { return nil }
            return counterpart.appUserId
        }
    }

    private static func record(_ state: DirectoryEntitlementCache.PartState) -> PartRecord {
        PartRecord(appUserId: state.appUserId, sequence: state.file.sequence, counterpart: state.file.counterpart)
    }

    /// The pair the newer part gives (the serving part on a tie): its own id, and the other's from its
    /// counterpart, else from its id (a logged-in id is the same in both; an anonymous one has no counterpart yet).
    private func resolve(serving: PartRecord, shadow: PartRecord) -> Pair {
        if let servingId = serving.appUserId, shadow.appUserId == nil || serving.sequence >= shadow.sequence {
            let shadowId =
                serving.counterpartId(in: shadowProvider.storageNamespace)
                ?? (isAnonymousOfServingOnly(servingId) ? nil : servingId)
            return Pair(serving: servingId, shadow: shadowId)
        }
        guard let shadowId = shadow.appUserId else { return Pair() }
        let servingId =
            shadow.counterpartId(in: servingProvider.storageNamespace)
            ?? (isAnonymousOfShadowOnly(shadowId) ? nil : shadowId)
        return Pair(serving: servingId, shadow: shadowId)
    }

    /// Writes `appUserId` and its shadow's form to both parts as one change, under both locks: unless
    /// `expected` is given and the device's customer is no longer that (then nothing is written, and the pair
    /// on disk is returned). Both parts already agreeing on it writes nothing either.
    private func write(
        _ appUserId: String, in parts: (serving: DirectoryEntitlementCache, shadow: DirectoryEntitlementCache),
        unlessChangedFrom expected: String?
    ) throws(EntitlementCacheError) -> Pair {
        let observer = parts.serving.identityWriteObserver
        return try DirectoryEntitlementCache.withLocks(of: parts.serving, and: parts.shadow) {
            () throws(EntitlementCacheError) -> Pair in
            let servingState = parts.serving.partState()
            let shadowState = parts.shadow.partState()
            let servingRecord = Self.record(servingState)
            let shadowRecord = Self.record(shadowState)
            let current = resolve(serving: servingRecord, shadow: shadowRecord)
            if let expected, !Self.same(current.serving, expected) { return current }
            let shadowId = shadowsForm(of: appUserId, current: current)
            let servingNamespace = servingProvider.storageNamespace
            let shadowNamespace = shadowProvider.storageNamespace
            let floor = [servingState.trustedFloor, shadowState.trustedFloor].compactMap(\.self).max()
            let isWritten =
                Self.same(servingState.file.appUserId, appUserId) && Self.same(shadowState.file.appUserId, shadowId)
                && Self.same(servingRecord.counterpartId(in: shadowNamespace), shadowId)
                && Self.same(shadowRecord.counterpartId(in: servingNamespace), appUserId)
                && servingRecord.sequence == shadowRecord.sequence && servingState.file.trustedFloor == floor
                && shadowState.file.trustedFloor == floor
            if expected != nil, isWritten { return Pair(serving: appUserId, shadow: shadowId) }
            observer?(.bothPartsLocked)
            let sequence = max(servingRecord.sequence, shadowRecord.sequence) + 1
            /// A part's file holding `id`, with the other part's id as its counterpart.
            func file(_ state: DirectoryEntitlementCache.PartState, holding id: String, other: (String, String))
                -> CacheFileFormat.DeviceState
            {
                var file = state.file
                file.appUserId = id
                file.sequence = sequence
                file.counterpart = CacheFileFormat.Counterpart(namespace: other.0, appUserId: other.1)
                file.trustedFloor = floor
                return file
            }
            try parts.serving.writeDeviceFile(
                file(servingState, holding: appUserId, other: (shadowNamespace, shadowId)))
            observer?(.firstPartWritten)
            try parts.shadow.writeDeviceFile(file(shadowState, holding: shadowId, other: (servingNamespace, appUserId)))
            return Pair(serving: appUserId, shadow: shadowId)
        }
    }

    /// The id the shadow's part gets with `appUserId` in the serving part: the id itself, or, for the serving
    /// backend's anonymous id, an anonymous id of the shadow's form — the one the pair already has when the
    /// customer stays that anonymous person (or is the shadow's anonymous customer alone), else a new one.
    private func shadowsForm(of appUserId: String, current: Pair) -> String {
        guard isAnonymousOfServingOnly(appUserId) else { return appUserId }
        if let currentServing = current.serving, !currentServing.isSameAppUserId(as: appUserId) {
            return shadowProvider.makeAnonymousAppUserId()
        }
        if let currentShadow = current.shadow, shadowProvider.isAnonymous(currentShadow) { return currentShadow }
        return shadowProvider.makeAnonymousAppUserId()
    }

    /// Whether two ids, either maybe absent, are the same bytes.
    private static func same(_ one: String?, _ other: String?) -> Bool {
        switch (one, other) {
        case (nil, nil): true
        case (let one?, let other?): one.isSameAppUserId(as: other)
        default: false
        }
    }

    private func isAnonymousOfServingOnly(_ appUserId: String) -> Bool {
        servingProvider.isAnonymous(appUserId) && !shadowProvider.isAnonymous(appUserId)
    }

    private func isAnonymousOfShadowOnly(_ appUserId: String) -> Bool {
        shadowProvider.isAnonymous(appUserId) && !servingProvider.isAnonymous(appUserId)
    }

    /// Tells the provider which anonymous id of the shadow's form goes with the serving backend's anonymous id,
    /// so it sends that customer's writes to the shadow under it.
    private func tellProvider(_ pair: Pair) async {
        guard let servingId = pair.serving, let shadowId = pair.shadow, isAnonymousOfServingOnly(servingId) else {
            return
        }
        await provider.pairAnonymousAppUserId(servingId, withShadows: shadowId)
    }
}

extension MigratingProvider {
    /// The part of `cache` a client of this provider uses: both backends' parts, whose customer and floor
    /// change as one; the serving backend's part alone when both backends share one namespace, or the cache
    /// gives both the same part (an ``InMemoryEntitlementCache``).
    public nonisolated func clientCache(in cache: any EntitlementCache) -> any EntitlementCache {
        let servingPart = cache.partition(for: serving)
        guard serving.storageNamespace != shadow.storageNamespace else { return servingPart }
        let shadowPart = cache.partition(for: shadow)
        if let one = servingPart as? any Actor, let other = shadowPart as? any Actor, one === other {
            return servingPart
        }
        return CutOverCache(serving: servingPart, shadow: shadowPart, provider: self)
    }
}
