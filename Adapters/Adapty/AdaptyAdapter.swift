import EntitlementKit
import Foundation

/// Maps Adapty profiles into the unified model.
///
/// Four documents carry a profile, and are told apart by their keys:
/// - the **SDK backend** body the mobile SDKs decode (`GET /api/v1/sdk/analytics/profiles/{profile_id}/`):
///   `{"data": {"type": "adapty_analytics_profile", "id": …, "attributes": {…}}}`;
/// - the **server API v1** body: `{"data": {…}}`;
/// - the **bridge** profile the cross-platform SDKs hand to Flutter, React Native or Unity: the profile bare,
///   or the reply `{"success": {…}}`;
/// - the **server API v2** body (`GET /api/v2/server-side-api/profile/`): `{"data": {…}}` with arrays of
///   `access_levels`, `subscriptions` and `non_subscriptions`.
///
/// ```swift
/// let snapshot = try AdaptyAdapter().snapshot(from: profileBody, at: .now)
/// if snapshot["premium"]?.isActive == true { unlockPremium() }
/// ```
///
/// Each access level becomes one entitlement. It is active when Adapty's `is_active` says so **and** its
/// `expires_at` (if any) has not passed; v2, which sends no flag, is active by the date unless its
/// `cancellation_reason` is `refund` or `adapty_revoked`. A wrong JSON type, a date that is not a date, an
/// access level without an id or product, an `id` that disagrees with its key, a lifetime level with an
/// expiry, or two v2 levels with one id fail the whole document with a located `DocumentError`. See
/// <doc:AdaptyMapping> for every field.
public struct AdaptyAdapter: EntitlementAdapter {
    /// `"adapty"`.
    public let provider = ProviderID.adapty

    /// Creates the adapter. It holds no state.
    public init() {}

    /// `data`, `success`, `profile_id` or `paid_access_levels`.
    public var formatMarkers: FormatMarkers { AdaptyWireFormat.markers }

    /// Whether `document` is one of Adapty's four profile documents, by the members that mark one
    /// (see <doc:AdaptyMapping>); members it does not know do not matter.
    public func recognizes(_ document: JSONValue) -> Bool {
        recognizes(JSONNode(document))
    }

    /// ``recognizes(_:)-(JSONValue)`` read in place.
    public func recognizes(_ document: JSONNode) -> Bool {
        AdaptyWireFormat.shape(of: document) != nil
    }

    /// Maps an Adapty profile document into a snapshot evaluated at `instant`.
    public func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        switch try shape(of: document) {
        case .serverV2:
            return EntitlementSnapshot(adaptyV2: try AdaptyV2Reader.read(document), provider: provider, at: instant)
        case let shape:
            return EntitlementSnapshot(
                adapty: try AdaptyProfileReader.read(document, shape: shape), provider: provider, at: instant)
        }
    }

    /// The shape to read `document` as. Beyond ``recognizes(_:)``, a document that is plainly meant as
    /// Adapty's but carries no profile (an error reply, a bridge `{"success": true}`) gets the error that
    /// names what it is, not a generic "unrecognised".
    private func shape(of document: JSONNode) throws(DocumentError) -> AdaptyShape {
        if let shape = AdaptyWireFormat.shape(of: document) { return shape }
        try document.requireObject()
        for errorKey in [Field.error, Field.errors, Field.errorCode] {
            if let error = try document.optional(errorKey) {
                throw DocumentError(
                    kind: .vendorError, path: error.path, offending: error.value,
                    reason: "is an Adapty error reply, not a profile")
            }
        }
        if let success = document.member(Field.success) {
            throw DocumentError(
                kind: .unrecognizedFormat, path: success.path, offending: success.value,
                reason:
                    "is not a profile: only a get-profile or restore reply carries one (`{\"success\": {…}}`); identify, logout and update answer `{\"success\": true}`"
            )
        }
        if let data = try document.optional(Field.data) {
            try data.requireObject()
            throw DocumentError(
                kind: .unrecognizedFormat, path: data.path,
                reason:
                    "has none of `attributes`, `paid_access_levels`, `access_levels` or `profile_id`: not an Adapty profile"
            )
        }
        throw DocumentError(
            kind: .unrecognizedFormat, path: document.path,
            reason: "is not an Adapty profile (`data`, `success` or a bare profile with `profile_id`)")
    }
}
