import EntitlementKit
import Foundation

extension AdaptyAdapter: FastPathAdapter {
    /// The four shapes read in one pass from their bytes (see `AdaptyFastReader.swift`).
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        switch try AdaptyFastDocument(fastReading: &reader) {
        case .profile(let profile): EntitlementSnapshot(adapty: profile, provider: provider, at: instant)
        case .serverV2(let profile): EntitlementSnapshot(adaptyV2: profile, provider: provider, at: instant)
        }
    }

    /// `false` for RevenueCat's `subscriber`, the unified `schemaVersion`, or an object with none of
    /// `data`, `success`, `profile_id` and `paid_access_levels`; otherwise only the values can tell.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        if hasKey("subscriber") || hasKey("schemaVersion") { return false }
        let mayBeAdapty = hasKey("data") || hasKey("success") || hasKey("profile_id") || hasKey("paid_access_levels")
        return mayBeAdapty ? nil : false
    }

    /// Also `false` for any document Qonversion's fast reader answered for: it answers only when `success`
    /// (if present) is `true` and `data` is an array or an object holding `uid` or `permissions` — never
    /// an Adapty profile (a bridge reply's `success` is an object, and a `data` with `uid` or `permissions`
    /// is not claimed).
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool, answeredBy answeringProvider: ProviderID)
        -> Bool?
    {
        answeringProvider == .qonversion ? false : recognizes(topLevelKey: hasKey)
    }
}
