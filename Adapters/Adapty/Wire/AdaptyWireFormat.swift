import EntitlementKit

/// Tells Adapty's four documents apart by their keys.
///
/// Detection is structural (top-level keys and the keys of `data`), so a malformed access level further
/// down still reaches its reader and fails there with a located error instead of being reported as "not
/// Adapty". It never claims another format's document: RevenueCat's (`subscriber`), a unified snapshot
/// (`schemaVersion`), or any of Qonversion's — their bridge-like envelope has a **boolean** `success`
/// (Adapty's bridge reply has an object), their launch result's `data` holds `uid` / `permissions`, and
/// their lists put an array in `data`.
enum AdaptyWireFormat {
    /// The shape of `document`, or `nil` when it is not an Adapty profile document.
    static func detect(_ document: JSONValue) -> AdaptyShape? {
        guard case .object(let members) = document, members["subscriber"] == nil, members["schemaVersion"] == nil
        else { return nil }
        if case .object? = members["success"] { return .bridge }
        if let data = members["data"] {
            guard case .object(let fields) = data else { return nil }
            return shape(ofData: fields)
        }
        guard members["success"] == nil else { return nil }
        return members["profile_id"] != nil || members["paid_access_levels"] != nil ? .bridge : nil
    }

    /// The shape of a `data` object: `attributes` → the SDK backend envelope; a sent (non-`null`)
    /// `paid_access_levels` → server API v1; a sent `access_levels`, or an array `subscriptions` /
    /// `non_subscriptions` → server API v2; otherwise (no container sent) a `null` `paid_access_levels` or
    /// a `profile_id` → server API v1 (a v1 profile may lack every container), a `null` `access_levels` →
    /// server API v2.
    static func shape(ofData data: [String: JSONValue]) -> AdaptyShape? {
        // Qonversion's launch result: never both.
        guard data["uid"] == nil, data["permissions"] == nil else { return nil }
        if data["attributes"] != nil { return .sdkBackend }
        // A `null` container reads as empty in either layout, so it cannot tell them apart: the containers
        // actually sent decide first.
        if data["paid_access_levels"]?.isNull == false { return .serverV1 }
        if data["access_levels"]?.isNull == false { return .serverV2 }
        for key in ["subscriptions", "non_subscriptions"] {
            if case .array? = data[key] { return .serverV2 }
        }
        if data["paid_access_levels"] != nil { return .serverV1 }
        if data["access_levels"] != nil { return .serverV2 }
        return data["profile_id"] != nil ? .serverV1 : nil
    }
}
