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
    static func detect(_ document: JSONNode) -> AdaptyShape? {
        guard document.kind == .object, !document.has("subscriber"), !document.has("schemaVersion") else {
            return nil
        }
        let success = document.member("success")
        if success?.kind == .object { return .bridge }
        if let data = document.member("data") {
            guard data.kind == .object else { return nil }
            return shape(ofData: data)
        }
        guard success == nil else { return nil }
        return document.has("profile_id") || document.has("paid_access_levels") ? .bridge : nil
    }

    /// The shape of a `data` object: `attributes` → the SDK backend envelope; a sent (non-`null`)
    /// `paid_access_levels` → server API v1; a sent `access_levels`, or an array `subscriptions` /
    /// `non_subscriptions` → server API v2; otherwise (no container sent) a `null` `paid_access_levels` or
    /// a `profile_id` → server API v1 (a v1 profile may lack every container), a `null` `access_levels` →
    /// server API v2.
    static func shape(ofData data: JSONNode) -> AdaptyShape? {
        // Qonversion's launch result: never both.
        guard !data.has("uid"), !data.has("permissions") else { return nil }
        if data.has("attributes") { return .sdkBackend }
        // A `null` container reads as empty in either layout, so it cannot tell them apart: the containers
        // actually sent decide first.
        let paidAccessLevels = data.member("paid_access_levels")
        let accessLevels = data.member("access_levels")
        if paidAccessLevels?.isNull == false { return .serverV1 }
        if accessLevels?.isNull == false { return .serverV2 }
        for key in ["subscriptions", "non_subscriptions"] where data.member(key)?.kind == .array {
            return .serverV2
        }
        if paidAccessLevels != nil { return .serverV1 }
        if accessLevels != nil { return .serverV2 }
        return data.has("profile_id") ? .serverV1 : nil
    }
}
