import Foundation

/// Where a cut-over pair's identity write is (see ``CutOverCache``): a test process is held or killed there.
/// (`package`: a test hook, not API.)
package enum IdentityPairWriteStage: String, Sendable, CaseIterable {
    /// Both parts' locks are held and both parts are read; nothing is written yet.
    case bothPartsLocked
    /// The serving part's device file is in place; the shadow part's is not written yet.
    case firstPartWritten
}

// What a cut-over pair (``CutOverCache``) needs of each of its two parts on disk: their device files read and
// written directly, under both parts' locks held at once.

extension DirectoryEntitlementCache {
    /// One part's device state as a cut-over pair reads it.
    struct PartState {
        /// The part's own device file (a write starts from it), or an empty state when there is none.
        var file: CacheFileFormat.DeviceState
        /// The stored id as ``storedAppUserId()`` gives it: the part's own, else one written before namespaces
        /// that is recognisably this part's provider's.
        var appUserId: String?
        /// The floor as ``trustedFloor()`` gives it (the one written before namespaces still raises it).
        var trustedFloor: Date?
    }

    /// This part's device state, read from disk.
    nonisolated func partState() -> PartState {
        let own = readDevice(files)
        let legacyState = legacy.flatMap { readDevice($0.files) }
        var appUserId = own?.appUserId
        if appUserId == nil, let legacy, let stored = legacyState?.appUserId,
            // Written before namespaces, by whichever provider the app used then: taken only when it is
            // recognisably this provider's.
            legacy.isAnonymous(stored) || legacyEntry(for: stored) != nil
        {
            appUserId = stored
        }
        let floor = [own?.trustedFloor, legacyState?.trustedFloor].compactMap(\.self).max()
        return PartState(file: own ?? CacheFileFormat.DeviceState(), appUserId: appUserId, trustedFloor: floor)
    }

    /// Replaces this part's device file with `state` (atomically; the caller holds the lock).
    nonisolated func writeDeviceFile(_ state: CacheFileFormat.DeviceState) throws(EntitlementCacheError) {
        try files.writeFile(CacheFileFormat.deviceFile(state), to: Self.deviceFileName)
    }

    /// Runs `body` holding both parts' locks on disk (see ``withLocks(of:_:)``).
    nonisolated static func withLocks<T>(
        of one: DirectoryEntitlementCache, and other: DirectoryEntitlementCache,
        _ body: () throws(EntitlementCacheError) -> T
    ) throws(EntitlementCacheError) -> T {
        try withLocks(of: [one, other], body)
    }

    /// Runs `body` holding every part's lock on disk, taken in the order of their paths, so two writers of one
    /// pair (on the same configuration or on opposite ones) take them in the same order and never deadlock.
    nonisolated static func withLocks<T>(
        of parts: [DirectoryEntitlementCache], _ body: () throws(EntitlementCacheError) -> T
    ) throws(EntitlementCacheError) -> T {
        let paths = Set(parts.map(\.files.path)).sorted()
        func locking(_ index: Int) throws(EntitlementCacheError) -> T {
            guard index < paths.count else { return try body() }
            return try CacheDirectoryFiles(path: paths[index]).withLock { () throws(EntitlementCacheError) -> T in
                try locking(index + 1)
            }
        }
        return try locking(0)
    }
}
