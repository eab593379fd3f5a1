/// The answer of ``EntitlementClient/checkEntitlements(_:)``: failure is an answer too.
///
/// A check carries the snapshot (evaluated at the client's trusted instant), where it came from, and the
/// error that happened on the way, if any: a failed fetch answered from the cache has all three. Without
/// a snapshot the answer grants nothing.
public struct EntitlementCheck: Sendable, Hashable {
    /// Where the answer, or the failure, came from.
    public enum Source: String, Sendable, Hashable, CustomStringConvertible {
        /// The backend was asked (and answered, or failed with no cached entry to fall back on).
        case network
        /// The cache answered: a fresh entry, a fallback after a failed fetch, or `fromCacheOnly`.
        case cache

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The customer's snapshot evaluated at the trusted instant; `nil` grants nothing.
    public let snapshot: EntitlementSnapshot?
    /// Where the answer (or the failure) came from.
    public let source: Source
    /// What went wrong on the way, if anything (also set when a cached entry still answered).
    public let error: EntitlementClientError?

    /// Creates an answer.
    public init(snapshot: EntitlementSnapshot?, source: Source, error: EntitlementClientError?) {
        self.snapshot = snapshot
        self.source = source
        self.error = error
    }

    /// The sorted ids of the active entitlements; `[]` without a snapshot.
    public var activeEntitlementIds: [String] {
        snapshot?.activeEntitlementIds ?? []
    }

    /// The entitlement `entitlementId`, active or not (`check["premium"]?.expirationDate`); `nil` when the
    /// snapshot does not list it, or without a snapshot.
    public subscript(entitlementId: String) -> Entitlement? {
        snapshot?[entitlementId]
    }

    /// Whether entitlement `entitlementId` is active; `false` without a snapshot.
    public func isActive(_ entitlementId: String) -> Bool {
        snapshot?.isActive(entitlementId) ?? false
    }
}
