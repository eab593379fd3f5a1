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
    static func detect(_ document: JSONNode) -> QonversionWireFormat? {
        guard document.kind == .object, !document.has("subscriber"), !document.has("schemaVersion") else {
            return nil
        }
        let success = document.member("success")
        guard let data = document.member("data") else {
            // `{"success": false}` with no data is still the v1 envelope, reporting a failure.
            return success?.kind == .bool ? .launchResult : nil
        }
        switch data.kind {
        case .object: return isLaunchResult(data: data) || success?.boolValue == false ? .launchResult : nil
        case .array: return listFormat(envelope: document, items: data)
        default: return nil
        }
    }

    /// Whether a `data` object holds what a launch result holds: the user's `uid` or the `permissions`
    /// list. The same `{"success": true, "data": {…}}` envelope wraps Qonversion's other replies
    /// (attribution's `{"status": "OK"}`, eligibility's `products_enriched`, an empty `{}`); reading those
    /// as "no entitlements" would answer a question they do not answer.
    static func isLaunchResult(data: JSONNode) -> Bool {
        let hasUserId = data.member("uid").map { !$0.isNull } ?? false
        return hasUserId || data.has("permissions")
    }

    private static func listFormat(envelope: JSONNode, items: JSONNode) -> QonversionWireFormat? {
        let isList = envelope.member("object")?.isString("list") == true
        let first = items.firstElement
        // Stripe's list objects share the envelope; their elements name another kind of object, and their
        // `url` is under Stripe's `/v1/`.
        if let kind = first?.member("object")?.stringValue, kind == "subscription" || kind == "checkout.session" {
            return nil
        }
        if first == nil, envelope.member("url")?.stringValue?.hasPrefix("/v1/") == true { return nil }
        if isList, envelope.has("has_more") || envelope.has("url") { return .v4List }
        guard let first, first.kind == .object else {
            // An empty `data: []` is a Qonversion list (a user with no entitlements); a non-object
            // first item is only claimed under an explicit list envelope, and fails in the reader.
            return first == nil || isList ? .v3List : nil
        }
        if first.has("is_active") || first.member("object")?.isString("user_entitlement") == true { return .v4List }
        if first.has("active") || isList { return .v3List }
        return nil
    }
}
