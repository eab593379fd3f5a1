import EntitlementKit
import Foundation

// The App Store adapter has no fast reader (a signed document is mostly signature checking, not
// parsing), but it takes part in the bulk decoder's fast format detection: without a say on the keys, one
// adapter without a fast path would send every detected record of every backend down the general path.
extension AppStoreAdapter: FastPathAdapter {
    /// Always a miss: App Store documents are read by the general path.
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        throw JSONFastPathMiss()
    }

    /// ``recognizes(_:)`` for an object, from its keys where they tell: never with another format's
    /// marker (`subscriber`, `schemaVersion`, `success`, `permissions`) nor without any member an App Store
    /// document has; `nil` (the values must tell) otherwise.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        if hasKey("subscriber") || hasKey("schemaVersion") || hasKey("success") || hasKey("permissions") {
            return false
        }
        let members: [StaticString] = ["statuses", "history", "transactions", "signedTransactions", "data"]
        return members.contains(where: hasKey) ? nil : false
    }

    /// Also `false` for any document Qonversion's fast reader answered for: it answers only for an object
    /// with a `data` member (never a history response, never the combined object) whose list items hold no
    /// `lastTransactions` (never a statuses response).
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool, answeredBy answeringProvider: ProviderID)
        -> Bool?
    {
        answeringProvider == .qonversion ? false : recognizes(topLevelKey: hasKey)
    }
}
