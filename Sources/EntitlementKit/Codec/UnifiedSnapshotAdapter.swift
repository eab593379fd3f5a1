import Foundation

/// Reads EntitlementKit's own unified snapshot JSON as if it were a backend's format (`--from unified`).
///
/// The document is decoded strictly (see ``EntitlementSnapshot/init(json:)-(JSONNode)``) and then
/// re-evaluated at the requested instant with ``EntitlementSnapshot/evaluated(at:)``, so a stored
/// snapshot answers exactly as a cached one would.
public struct UnifiedSnapshotAdapter: EntitlementAdapter {
    /// Creates the adapter.
    public init() {}

    /// `unified`.
    public var provider: ProviderID { .unified }

    /// `schemaVersion`.
    public var formatMarkers: FormatMarkers { Self.markers }

    /// Built once: detection asks for the markers about every record of a `migrate` input.
    private static let markers = FormatMarkers(memberNames: [UnifiedSchemaKey.schemaVersion.text])

    /// An object with a `schemaVersion` member.
    public func recognizes(_ document: JSONValue) -> Bool {
        document[UnifiedSchemaKey.schemaVersion.text] != nil
    }

    /// ``recognizes(_:)-(JSONValue)`` read in place.
    public func recognizes(_ document: JSONNode) -> Bool {
        document.has(UnifiedSchemaKey.schemaVersion.text)
    }

    /// Decodes the snapshot and judges it at `instant`; its `provider` stays the one it was made by.
    public func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        try EntitlementSnapshot(json: document).evaluated(at: instant)
    }
}
