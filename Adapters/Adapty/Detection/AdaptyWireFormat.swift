import EntitlementKit

/// Tells Adapty's four documents apart by their keys.
///
/// Detection is structural (top-level keys and the keys of `data`), so a malformed access level further
/// down still reaches its reader and fails there with a located error instead of being reported as "not
/// Adapty". It reads Adapty's own members only: a bridge reply's `success` is an object; an envelope holds
/// ``envelopeMembers``; a profile holds ``profileMembers`` (the SDK backend's `data` ``sdkBackendMembers``).
/// A document with any other member there is not claimed (name the format to read it).
enum AdaptyWireFormat {
    /// What ``FormatDetector`` looks for first: an envelope's `data` or `success`, a bare profile's
    /// `profile_id` or `paid_access_levels`.
    static let markers = FormatMarkers(memberNames: ["data", "success", "profile_id", "paid_access_levels"])

    /// The top-level members of a reply that wraps a profile.
    static let envelopeMembers: Set<String> = ["data", "success"]

    /// The members of the SDK backend's `data`: a JSON:API resource around the profile.
    static let sdkBackendMembers: Set<String> = ["type", "id", "attributes", "links", "meta", "relationships"]

    /// The members Adapty's profiles have (v1, SDK, bridge and server API v2 alike).
    static let profileMembers: Set<String> = [
        "profile_id", "customer_user_id", "timestamp", "paid_access_levels", "access_levels", "subscriptions",
        "non_subscriptions", "custom_attributes", "segment_hash", "is_test_user", "app_id", "total_revenue_usd",
        "promotional_offer_eligibility", "introductory_offer_eligibility", "email", "phone_number", "first_name",
        "last_name", "gender", "birthday", "store_country", "ip_country", "created_at", "updated_at",
        "last_seen_at", "installation_meta", "analytics_disabled",
    ]

    /// The shape of `document`, or `nil` when it is not an Adapty profile document.
    static func detect(_ document: JSONNode) -> AdaptyShape? {
        guard let shape = shape(of: document) else { return nil }
        switch shape {
        case .bridge where document.has("success"):
            return document.firstMemberName(outside: envelopeMembers) == nil ? shape : nil
        case .bridge:
            return document.firstMemberName(outside: profileMembers) == nil ? shape : nil
        case .sdkBackend, .serverV1, .serverV2:
            guard document.firstMemberName(outside: envelopeMembers) == nil,
                let data = document.member("data")
            else { return nil }
            return data.firstMemberName(outside: profileMembers.union(sdkBackendMembers)) == nil ? shape : nil
        }
    }

    /// ``detect(_:)`` without the check of the members: the shape a document named as Adapty's is read as.
    static func shape(of document: JSONNode) -> AdaptyShape? {
        guard document.kind == .object else { return nil }
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
