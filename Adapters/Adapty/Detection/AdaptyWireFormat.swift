import EntitlementKit

/// Tells Adapty's four documents apart by their keys.
///
/// Detection is structural (top-level keys and the keys of `data`), so a malformed access level further
/// down still reaches its reader and fails there with a located error instead of being reported as "not
/// Adapty". It claims by Adapty's own members only, and only by what marks a document as Adapty's: a bridge
/// reply's `success` object; a `data` object holding `attributes` (the SDK backend), `profile_id`, or a
/// sent `paid_access_levels` / `access_levels` / array `subscriptions` / `non_subscriptions`; a bare
/// `profile_id` or `paid_access_levels`. Any other member is ignored: Adapty adds fields, and a document
/// another format claims too is refused as ambiguous by ``FormatDetector``.
enum AdaptyWireFormat {
    /// What ``FormatDetector`` looks for first: an envelope's `data` or `success`, a bare profile's
    /// `profile_id` or `paid_access_levels`.
    static let markers = FormatMarkers(memberNames: [
        Field.data, Field.success, Field.profileId, Field.paidAccessLevels,
    ])

    /// The shape of `document`, or `nil` when nothing in it marks an Adapty profile document.
    static func shape(of document: JSONNode) -> AdaptyShape? {
        guard document.kind == .object else { return nil }
        let success = document.member(Field.success)
        if success?.kind == .object { return .bridge }
        if let data = document.member(Field.data) {
            guard data.kind == .object else { return nil }
            return shape(ofData: data)
        }
        guard success == nil else { return nil }
        return document.has(Field.profileId) || document.has(Field.paidAccessLevels) ? .bridge : nil
    }

    /// The shape of a `data` object: `attributes` → the SDK backend envelope; a sent (non-`null`)
    /// `paid_access_levels` → server API v1; a sent `access_levels`, or an array `subscriptions` /
    /// `non_subscriptions` → server API v2; otherwise (no container sent) a `null` `paid_access_levels` or
    /// a `profile_id` → server API v1 (a v1 profile may lack every container), a `null` `access_levels` →
    /// server API v2.
    static func shape(ofData data: JSONNode) -> AdaptyShape? {
        if data.has(Field.attributes) { return .sdkBackend }
        // A `null` container reads as empty in either layout, so it cannot tell them apart: the containers
        // actually sent decide first.
        let paidAccessLevels = data.member(Field.paidAccessLevels)
        let accessLevels = data.member(Field.accessLevels)
        if paidAccessLevels?.isNull == false { return .serverV1 }
        if accessLevels?.isNull == false { return .serverV2 }
        for key in [Field.subscriptions, Field.nonSubscriptions] where data.member(key)?.kind == .array {
            return .serverV2
        }
        if paidAccessLevels != nil { return .serverV1 }
        if accessLevels != nil { return .serverV2 }
        return data.has(Field.profileId) ? .serverV1 : nil
    }
}
