import EntitlementKit
import Foundation

/// Maps Qonversion entitlement responses into the unified model.
///
/// Three response shapes are accepted and told apart by their keys:
/// - the **v1 launch result** that the mobile SDKs' `checkEntitlements` decodes
///   (`{"success": true, "data": {"uid": …, "permissions": [ … ]}}`, `active` 0/1, integer
///   `renew_state`, seconds since the epoch, `store_transactions`);
/// - the **v3 REST list** (`{"object": "list", "data": [ … ]}`, JSON booleans, string renew states,
///   nested `product`, seconds);
/// - the **v4 REST list** (`object: "list"`, `has_more`, `is_active`, ISO 8601 dates).
///
/// ```swift
/// let snapshot = try QonversionAdapter().snapshot(from: responseBody, at: .now)
/// if snapshot["premium"]?.isActive == true { unlockPremium() }
/// ```
///
/// An entitlement is active when Qonversion's flag says so **and** its expiration date (if any) has
/// not passed: a stale `active: 1` past its expiry is inactive. A failed envelope, a malformed
/// element, an element without an id or two elements with the same id fail the whole document with
/// a located `DocumentError`. See <doc:QonversionMapping> for every field.
public struct QonversionAdapter: EntitlementAdapter {
    /// `"qonversion"`.
    public let provider = ProviderID.qonversion

    /// Creates the adapter. It holds no state.
    public init() {}

    /// `success` or `data`.
    public var formatMarkers: FormatMarkers { QonversionWireFormat.markers }

    /// Whether `document` is a Qonversion v1 launch result or a v3/v4 entitlement list (an empty list
    /// included), by the members that mark one; members it does not know do not matter, except that a list
    /// with no mark of Qonversion's (an empty one) must hold nothing but a list's members.
    public func recognizes(_ document: JSONValue) -> Bool {
        recognizes(JSONNode(document))
    }

    /// ``recognizes(_:)-(JSONValue)`` read in place.
    public func recognizes(_ document: JSONNode) -> Bool {
        QonversionWireFormat.detect(document) != nil
    }

    /// Maps a Qonversion response into a snapshot evaluated at `instant`.
    public func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        let wire: QonversionWireDocument
        switch try format(of: document) {
        case .launchResult: wire = try QonversionLaunchResultReader.read(document)
        case .v3List: wire = try QonversionRESTListReader.v3.read(document)
        case .v4List: wire = try QonversionRESTListReader.v4.read(document)
        }
        return try EntitlementSnapshot(qonversion: wire, provider: provider, at: instant)
    }

    /// The shape to read `document` as. Beyond ``recognizes(_:)``, a document that is plainly meant
    /// as Qonversion's but is broken (`data` of the wrong type, a REST error body) gets the error that
    /// names what is wrong, not a generic "unrecognised".
    private func format(of document: JSONNode) throws(DocumentError) -> QonversionWireFormat {
        if let format = QonversionWireFormat.shape(of: document) { return format }
        try document.requireObject()
        if let error = document.member(Field.error), error.kind == .object {
            throw DocumentError(
                kind: .vendorError, path: error.path, offending: error.value,
                reason: "is an error response, not entitlements")
        }
        if let data = try document.optional(Field.data) {
            switch data.kind {
            case .object:
                throw DocumentError(
                    kind: .unrecognizedFormat, path: data.path,
                    reason:
                        "has neither `uid` nor `permissions`: a Qonversion reply, but not a launch result (attribution, eligibility and other replies carry no entitlements)"
                )
            case .array: return .v3List
            default: throw data.typeMismatch("an object (v1 launch result) or an array (v3/v4 list)")
            }
        }
        if document.member(Field.success) != nil || document.member(Field.data) != nil {
            return .launchResult
        }
        if document.member(Field.object)?.isString("list") == true {
            return .v4List
        }
        throw DocumentError(
            kind: .unrecognizedFormat, path: document.path,
            reason: "is neither a Qonversion launch result (`data.permissions`) nor an entitlement list (`data`)")
    }
}
