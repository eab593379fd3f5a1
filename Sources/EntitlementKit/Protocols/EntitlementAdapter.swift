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

    /// ``recognizes(_:)-(JSONValue)`` read in place, without making the document's tree: the bulk decoder
    /// asks it of every adapter for every record. The default makes the tree and asks
    /// ``recognizes(_:)-(JSONValue)``; an adapter answers from its markers (top-level keys) instead.
    func recognizes(_ document: JSONNode) -> Bool

    /// Maps a parsed document into a snapshot evaluated at `instant`.
    ///
    /// Fails closed: a missing or malformed field where access is decided is a ``DocumentError`` for the
    /// whole document, never a partial snapshot. Unknown enum values are not errors; they map to
    /// `.unknown`.
    func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot
}

extension EntitlementAdapter {
    /// The tree of `document`, asked of ``recognizes(_:)-(JSONValue)``.
    public func recognizes(_ document: JSONNode) -> Bool {
        recognizes(document.value)
    }

    /// Parses `data` and maps it into a snapshot evaluated at `instant`.
    public func snapshot(from data: Data, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        try snapshot(from: JSONNode(parsing: data), at: instant)
    }

    /// Parses `data` and maps it into a snapshot evaluated at the clock's instant.
    public func snapshot(from data: Data, clock: some WallClock) throws(DocumentError) -> EntitlementSnapshot {
        try snapshot(from: data, at: clock.now())
    }
}
