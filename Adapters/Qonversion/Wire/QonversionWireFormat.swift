import EntitlementKit

/// Which of Qonversion's entitlement responses a document is.
///
/// Told apart by ``detect(_:)`` (QonversionWireFormat+Detection.swift).
enum QonversionWireFormat: Sendable, Hashable {
    /// The v1 launch result (`POST v1/user/init`, `purchase`, `restore`): `data.uid` or `data.permissions`,
    /// usually under `success: true`; or a `success: false` envelope reporting a failed request.
    case launchResult
    /// `GET v3/users/{id}/entitlements`: `data` is an array of items with `active`.
    case v3List
    /// `GET v4/users/{id}/entitlements`: `object: "list"`, `has_more`, items with `is_active`.
    case v4List
}
