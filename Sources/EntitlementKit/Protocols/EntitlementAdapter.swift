import Foundation

/// Maps one backend's response format into the unified model.
///
/// An adapter is a pure function of the vendor's bytes and an instant: no network, no clock, no state.
/// Each backend's adapter lives in its own module (`EntitlementKitRevenueCat`, `EntitlementKitQonversion`);
/// the core names none of them. Conform to add a backend.
///
/// ```swift
/// let snapshot = try RevenueCatAdapter().snapshot(from: data, at: .now)
/// ```
public protocol EntitlementAdapter: Sendable {
    /// The provider id written into snapshots and accepted by `--from`: `revenuecat`, `qonversion`.
    var provider: ProviderID { get }

    /// Whether `document` has this format's shape. Cheap and structural (top-level keys, not field
    /// values), so a CLI can pick an adapter for an unlabelled file. At most one adapter should claim a
    /// given document.
    func recognizes(_ document: JSONValue) -> Bool

    /// Maps a parsed document into a snapshot evaluated at `instant`.
    ///
    /// Fails closed: a missing or malformed field where access is decided is a ``DocumentError`` for the
    /// whole document, never a partial snapshot. Unknown enum values are not errors; they map to
    /// `.unknown`.
    func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot
}

extension EntitlementAdapter {
    /// Parses `data` and maps it into a snapshot evaluated at `instant`.
    ///
    /// Adapters with a byte-level fast path read `data` through it first; it gives the same snapshot, and
    /// leaves every document it is not sure of (and every error) to the general path.
    public func snapshot(from data: Data, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        if let fast = self as? any FastPathAdapter, let snapshot = fast.fastSnapshot(data: data, at: instant) {
            return snapshot
        }
        return try snapshot(from: JSONNode(parsing: data), at: instant)
    }

    /// Parses `data` and maps it into a snapshot evaluated at the clock's instant.
    public func snapshot(from data: Data, clock: some WallClock) throws(DocumentError) -> EntitlementSnapshot {
        try snapshot(from: data, at: clock.now())
    }
}
