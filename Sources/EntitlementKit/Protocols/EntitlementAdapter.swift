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

    /// The top-level members this format's documents are known by, declared once: ``FormatDetector``
    /// asks ``recognizes(_:)-(JSONNode)`` only about documents they admit. The default,
    /// ``FormatMarkers/unrestricted``, is asked about every document.
    var formatMarkers: FormatMarkers { get }

    /// Whether `document` has this format's shape. Cheap and structural (keys, not field values), so a CLI
    /// can pick an adapter for an unlabelled file. Decided by this format's own members and values alone,
    /// never by another format's keys; ``FormatDetector`` refuses a document two formats claim.
    func recognizes(_ document: JSONValue) -> Bool

    /// ``recognizes(_:)-(JSONValue)`` read in place: the bulk decoder asks it of every adapter for every
    /// record. The default rules out what ``formatMarkers`` does not admit without making the tree, then
    /// asks ``recognizes(_:)-(JSONValue)``.
    func recognizes(_ document: JSONNode) -> Bool

    /// Maps a parsed document into a snapshot evaluated at `instant`.
    ///
    /// Fails closed: a missing or malformed field where access is decided is a ``DocumentError`` for the
    /// whole document, never a partial snapshot. Unknown enum values are not errors; they map to
    /// `.unknown`.
    func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot
}

extension EntitlementAdapter {
    /// No markers: asked about every document.
    public var formatMarkers: FormatMarkers { .unrestricted }

    /// ``recognizes(_:)-(JSONValue)`` of the tree of a document ``formatMarkers`` admits.
    public func recognizes(_ document: JSONNode) -> Bool {
        formatMarkers.admits(document) && recognizes(document.value)
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
