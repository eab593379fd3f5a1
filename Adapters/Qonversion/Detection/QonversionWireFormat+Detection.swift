import EntitlementKit

extension QonversionWireFormat {
    /// The top-level members of Qonversion's responses: the v1 envelope (`success`, `data`), the REST lists
    /// (`object`, `data`, `url`, `has_more`, `next_cursor`) and the REST error body (`error`, `_meta`).
    /// A document with any other top-level member is not one of them.
    static let envelopeMembers: Set<String> = [
        "success", "data", "object", "url", "has_more", "next_cursor", "error", "_meta",
    ]

    /// What ``FormatDetector`` looks for first: every response but the error body has `success` or `data`.
    static let markers = FormatMarkers(memberNames: ["success", "data"])

    /// The format of `document`, or `nil` when it is none of Qonversion's.
    ///
    /// Detection is structural (top-level keys and the first list item's keys), so a malformed element
    /// further down still reaches its reader and fails there with a located error instead of being
    /// reported as "not Qonversion". It reads Qonversion's own members only: a top-level member no
    /// Qonversion response has (``envelopeMembers``), a list element that names another kind of `object`
    /// than `user_entitlement`, or an empty list whose `url` is not under Qonversion's `/v3/users/` or
    /// `/v4/users/` rules a document out.
    static func detect(_ document: JSONNode) -> QonversionWireFormat? {
        guard document.firstMemberName(outside: envelopeMembers) == nil else { return nil }
        return shape(of: document)
    }

    /// ``detect(_:)`` without the check of the top-level members: the shape a document named as
    /// Qonversion's is read as.
    static func shape(of document: JSONNode) -> QonversionWireFormat? {
        guard document.kind == .object else { return nil }
        let success = document.member("success")
        guard let data = document.member("data") else {
            // `{"success": false}` with no data is still the v1 envelope, reporting a failure; a bare
            // `{"success": true}` says nothing about entitlements.
            return success?.boolValue == false ? .launchResult : nil
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
        // A v4 element names itself `user_entitlement`; an element naming another kind of object is not one.
        if let kind = first?.member("object")?.stringValue, kind != "user_entitlement" { return nil }
        if first == nil, let url = envelope.member("url")?.stringValue,
            !(url.hasPrefix("/v3/users/") || url.hasPrefix("/v4/users/"))
        {
            return nil
        }
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
