import Foundation

/// Persistent per-device storage of ``EntitlementClient``: one entry per app user id, the app user id
/// to use at the next launch, and the trusted-instant floor (the latest server time the client has
/// used, so turning the device clock back across a relaunch revives nothing before it).
///
/// Everything is keyed by app user id: the client never asks for, and a cache never answers with,
/// another customer's entry. A cache that cannot read an entry (corrupt, truncated, another customer's,
/// another schema) answers `nil`: the client then fetches, and an unreadable entry never grants access.
///
/// Implementations: ``InMemoryEntitlementCache`` (tests, or apps that want nothing on disk) and
/// ``DirectoryEntitlementCache`` (one file per customer in a directory the app chooses).
///
/// A client uses the part of the cache that ``partition(for:)`` gives for its provider, so clients of
/// two backends (or two projects of one backend) on one store never share an id, an entry or a floor.
public protocol EntitlementCache: Sendable {
    /// The cache the client of `provider` uses: the part of this store that belongs to
    /// `provider.storageNamespace`. The default is the cache itself, right for a store one client uses
    /// (an ``InMemoryEntitlementCache`` made for it); a store that clients of several backends share
    /// returns a part of its own per namespace (``DirectoryEntitlementCache`` does).
    func partition(for provider: any EntitlementProvider) -> any EntitlementCache

    /// A cheap mark that changes whenever the stored app user id or floor may have changed on disk,
    /// without reading them: the client compares it before answering from memory, so a logIn or logOut
    /// by another process sharing the store (an app and its extension) is followed at this process's next
    /// check. `nil` (the default) for a store no other process shares.
    func sharedStateStamp() -> CacheStamp?
    /// The entry stored for `appUserId`, or `nil` when there is none or it cannot be read.
    func entry(for appUserId: String) async -> EntitlementCacheEntry?
    /// Stores `entry` for `appUserId`, replacing any earlier one.
    func store(_ entry: EntitlementCacheEntry, for appUserId: String) async throws(EntitlementCacheError)
    /// Removes the entry for `appUserId`, if any.
    func removeEntry(for appUserId: String) async
    /// The app user id stored for the next launch, if any.
    func storedAppUserId() async -> String?
    /// Stores the app user id for the next launch.
    func storeAppUserId(_ appUserId: String) async throws(EntitlementCacheError)
    /// The stored trusted-instant floor, if any.
    func trustedFloor() async -> Date?
    /// Stores the trusted-instant floor (the client only ever raises it).
    func storeTrustedFloor(_ floor: Date) async throws(EntitlementCacheError)

    /// Brings every part of the store in line with the customer the client starts with, `appUserId`, which
    /// it read from ``storedAppUserId()`` (a migration's cache keeps one part per backend). Called at launch
    /// when the client keeps the stored customer. The default does nothing: one store, one id. A decorator
    /// forwards it.
    func recordStartingAppUserId(_ appUserId: String) async throws(EntitlementCacheError)

    /// Records that the device launched under `configuration` and answers whether purchases need a sync
    /// (``EntitlementClient/needsPurchaseSync``): the cache last launched under another configuration, or
    /// under this one without a sync since. The default keeps no record and never asks for a sync. A
    /// decorator forwards it, or its client stops asking for the sync a migration's new stage needs.
    func recordLaunch(_ configuration: LaunchConfiguration) async -> Bool

    /// Records that a sync or restore succeeded under `configuration`, unless another configuration launched
    /// since. The default does nothing. A decorator forwards it.
    func recordPurchasesSynced(_ configuration: LaunchConfiguration) async
}

extension EntitlementCache {
    /// The cache itself: see ``EntitlementCache/partition(for:)``.
    public func partition(for provider: any EntitlementProvider) -> any EntitlementCache { self }

    /// `nil`: no other process shares the store (see ``EntitlementCache/sharedStateStamp()``).
    public func sharedStateStamp() -> CacheStamp? { nil }

    /// Nothing: one store holds one id (see ``EntitlementCache/recordStartingAppUserId(_:)``).
    public func recordStartingAppUserId(_ appUserId: String) async throws(EntitlementCacheError) {}

    /// `false`: no record kept, no sync asked for (see ``EntitlementCache/recordLaunch(_:)``).
    public func recordLaunch(_ configuration: LaunchConfiguration) async -> Bool { false }

    /// Nothing (see ``EntitlementCache/recordPurchasesSynced(_:)``).
    public func recordPurchasesSynced(_ configuration: LaunchConfiguration) async {}
}

/// What ``EntitlementCache/sharedStateStamp()`` answers: equal stamps mean nothing changed in between.
public struct CacheStamp: Sendable, Hashable {
    private let parts: [Int64]

    /// A stamp from the numbers that identify a state (a file's device, inode, size, modification time).
    public init(_ parts: [Int64]) {
        self.parts = parts
    }

    /// One stamp of several stores' (a missing one counts as a state of its own): it changes when any does.
    init(combining stamps: [CacheStamp?]) {
        parts = stamps.flatMap { [Int64($0?.parts.count ?? -1)] + ($0?.parts ?? []) }
    }
}

/// One customer's cached answer and what the client's freshness and clock rules need about it.
public struct EntitlementCacheEntry: Sendable, Hashable {
    /// The snapshot exactly as the provider returned it (the client re-evaluates it at every answer).
    public let snapshot: EntitlementSnapshot
    /// The device clock when the entry was written (whole milliseconds): after a relaunch the entry is
    /// fresh only while `writtenAt <= device now < writtenAt + freshFor`.
    public let writtenAt: Date
    /// The newest server time known when the entry was written: the snapshot's `requestDate`, or later
    /// when the client had newer server time. Reading the entry raises the trusted-instant floor to it.
    public let newestRequestDate: Date?
    /// Whether ``EntitlementClient/invalidateCache()`` marked the entry stale: it still answers
    /// `fromCacheOnly` and after a failed fetch, but is never fresh again.
    public let isInvalidated: Bool
    /// The backend's validator for the answer `snapshot` came from (see ``ValidatedSnapshot``): the next
    /// fetch asks whether anything changed since, even after a relaunch.
    public let validator: String?

    /// Creates an entry.
    public init(
        snapshot: EntitlementSnapshot, writtenAt: Date, newestRequestDate: Date?, isInvalidated: Bool = false,
        validator: String? = nil
    ) {
        self.snapshot = snapshot
        self.writtenAt = writtenAt
        self.newestRequestDate = newestRequestDate
        self.isInvalidated = isInvalidated
        self.validator = validator
    }

    /// The same entry marked stale.
    func invalidated() -> EntitlementCacheEntry {
        EntitlementCacheEntry(
            snapshot: snapshot, writtenAt: writtenAt, newestRequestDate: newestRequestDate, isInvalidated: true,
            validator: validator)
    }
}

/// Why a cache could not be opened or could not store something.
public struct EntitlementCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The cache directory is unsafe to trust: a symbolic link, writable by other users, owned by
        /// another user, or not a directory.
        case unsafeDirectory
        /// The file system refused a read, write, rename or sync.
        case fileSystem

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened, in one line (paths, `errno` text; never an entry's content).
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
