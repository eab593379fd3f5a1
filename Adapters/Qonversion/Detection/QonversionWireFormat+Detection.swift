import EntitlementKit

extension QonversionWireFormat {
    /// The members of the REST lists' envelope (`object`, `data`, `url`, `has_more`, `next_cursor`): a list
    /// that carries no mark of Qonversion's is claimed only when it holds nothing else.
    static let listEnvelopeMembers: Set<String> = [
        Field.object, Field.data, Field.url, Field.hasMore, Field.nextCursor,
    ]

    /// What ``FormatDetector`` looks for first: every response but the error body has `success` or `data`.
    static let markers = FormatMarkers(memberNames: [Field.success, Field.data])

    /// The format of `document`, or `nil` when it is none of Qonversion's.
    ///
    /// Detection is structural (top-level keys and the first list item's keys), so a malformed element
    /// further down still reaches its reader and fails there with a located error instead of being
    /// reported as "not Qonversion". It claims by Qonversion's own marks, whatever else the document holds
    /// (Qonversion adds fields; a document another format claims too is refused as ambiguous by
    /// ``FormatDetector``): a `data` object holding `uid` or `permissions`, a `false` `success`, a list
    /// whose first element is a `user_entitlement` or carries `is_active` / `active`, a list whose `url` is
    /// under Qonversion's `/v3/users/` or `/v4/users/`. A list with none of those marks (an empty `data: []`,
    /// an `object: "list"` of unmarked elements) says nothing about whose it is, so it is claimed only when
    /// it holds nothing but the list envelope's members (``listEnvelopeMembers``).
    static func detect(_ document: JSONNode) -> QonversionWireFormat? {
        guard let format = shape(of: document) else { return nil }
        if format != .launchResult, !isMarkedList(document),
            document.firstMemberName(outside: listEnvelopeMembers) != nil
        {
            return nil
        }
        return format
    }

    /// Whether a list carries a mark of Qonversion's: a `url` under its users' paths, or a first element
    /// that is a `user_entitlement` or carries `is_active` / `active`.
    private static func isMarkedList(_ document: JSONNode) -> Bool {
        let url = document.member(Field.url)?.stringValue ?? ""
        if url.hasPrefix("/v3/users/") || url.hasPrefix("/v4/users/") { return true }
        guard let first = document.member(Field.data)?.firstElement, first.kind == .object else { return false }
        return first.has(Field.isActive) || first.has(Field.active)
            || first.member(Field.object)?.isString("user_entitlement") == true
    }

    /// ``detect(_:)`` without the check that an unmarked list holds nothing else: the shape a document
    /// named as Qonversion's is read as.
    static func shape(of document: JSONNode) -> QonversionWireFormat? {
        guard document.kind == .object else { return nil }
        let success = document.member(Field.success)
        guard let data = document.member(Field.data) else {
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
        let hasUserId = data.member(Field.uid).map { !$0.isNull } ?? false
        return hasUserId || data.has(Field.permissions)
    }

    private static func listFormat(envelope: JSONNode, items: JSONNode) -> QonversionWireFormat? {
        let isList = envelope.member(Field.object)?.isString("list") == true
        let first = items.firstElement
        // A v4 element names itself `user_entitlement`; an element naming another kind of object is not one.
        if let kind = first?.member(Field.object)?.stringValue, kind != "user_entitlement" { return nil }
        if first == nil, let url = envelope.member(Field.url)?.stringValue,
            !(url.hasPrefix("/v3/users/") || url.hasPrefix("/v4/users/"))
        {
            return nil
        }
        if isList, envelope.has(Field.hasMore) || envelope.has(Field.url) { return .v4List }
        guard let first, first.kind == .object else {
            // An empty `data: []` is a Qonversion list (a user with no entitlements); a non-object
            // first item is only claimed under an explicit list envelope, and fails in the reader.
            return first == nil || isList ? .v3List : nil
        }
        if first.has(Field.isActive) || first.member(Field.object)?.isString("user_entitlement") == true {
            return .v4List
        }
        if first.has(Field.active) || isList { return .v3List }
        return nil
    }
}
