/// How ``EntitlementClient/checkEntitlements(_:)`` may use the cache (RevenueCat's names).
public enum FetchPolicy: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// A fresh cache entry answers without a backend call; otherwise fetch, and on failure fall back to
    /// the cached entry (the error reported alongside). The default.
    case cachedOrFetched
    /// Always fetch; on failure fall back to the cached entry as ``cachedOrFetched`` does.
    case fetchCurrent
    /// A fresh cache entry answers; otherwise fetch, and a failed fetch is a failure even with a stale
    /// entry.
    case notStaleCachedOrFetched
    /// The cached entry of any age, or ``EntitlementClientError/Code/noCachedSnapshot``; never a backend
    /// call.
    case fromCacheOnly

    /// The raw value.
    public var description: String { rawValue }
}
