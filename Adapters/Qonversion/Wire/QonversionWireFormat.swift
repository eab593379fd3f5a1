import EntitlementKit

/// Which of Qonversion's entitlement responses a document is.
///
/// Detection is structural (top-level keys and the first list item's keys), so a malformed element
/// further down still reaches its reader and fails there with a located error instead of being
/// reported as "not Qonversion".
enum QonversionWireFormat: Sendable, Hashable {
    /// The v1 launch result (`POST v1/user/init`, `purchase`, `restore`): `data.uid` or `data.permissions`,
    /// usually under `success: true`; or a `success: false` envelope reporting a failed request.
    case launchResult
    /// `GET v3/users/{id}/entitlements`: `data` is an array of items with `active`.
    case v3List
    /// `GET v4/users/{id}/entitlements`: `object: "list"`, `has_more`, items with `is_active`.
    case v4List

    /// The format of `document`, or `nil` when it is none of Qonversion's, including other vendors'
    /// documents (RevenueCat's `subscriber`) and unified snapshots (`schemaVersion`).
    static func detect(_ document: JSONValue) -> QonversionWireFormat? {
        guard case .object(let members) = document,
            members["subscriber"] == nil, members["schemaVersion"] == nil
        else { return nil }
        switch members["data"] {
        case .object(let data):
            return isLaunchResult(data: data) || members["success"] == .bool(false) ? .launchResult : nil
        case .array(let items):
            return listFormat(envelope: members, items: items)
        case nil:
            // `{"success": false}` with no data is still the v1 envelope, reporting a failure.
            if case .bool = members["success"] { return .launchResult }
            return nil
        default:
            return nil
        }
    }

    /// Whether a `data` object holds what a launch result holds: the user's `uid` or the `permissions`
    /// list. The same `{"success": true, "data": {…}}` envelope wraps Qonversion's other replies
    /// (attribution's `{"status": "OK"}`, eligibility's `products_enriched`, an empty `{}`); reading those
    /// as "no entitlements" would answer a question they do not answer.
    static func isLaunchResult(data: [String: JSONValue]) -> Bool {
        let hasUserId = data["uid"].map { $0 != .null } ?? false
        return hasUserId || data["permissions"] != nil
    }

    private static func listFormat(envelope: [String: JSONValue], items: [JSONValue]) -> QonversionWireFormat? {
        let isList = envelope["object"] == .string("list")
        // Stripe's list objects share the envelope; their elements name another kind of object, and their
        // `url` is under Stripe's `/v1/`.
        if case .object(let first)? = items.first, case .string(let kind)? = first["object"],
            kind == "subscription" || kind == "checkout.session"
        {
            return nil
        }
        if items.isEmpty, case .string(let url)? = envelope["url"], url.hasPrefix("/v1/") { return nil }
        if isList, envelope["has_more"] != nil || envelope["url"] != nil { return .v4List }
        guard case .object(let first)? = items.first else {
            // An empty `data: []` is a Qonversion list (a user with no entitlements); a non-object
            // first item is only claimed under an explicit list envelope, and fails in the reader.
            return items.isEmpty || isList ? .v3List : nil
        }
        if first["is_active"] != nil || first["object"] == .string("user_entitlement") { return .v4List }
        if first["active"] != nil || isList { return .v3List }
        return nil
    }
}
