import EntitlementKit
import Foundation

// The Google Play adapter has no fast reader, but it takes part in the bulk decoder's fast format
// detection: without a say on the keys, one adapter without a fast path would send every detected record
// of every backend down the general path.
extension GooglePlayAdapter: FastPathAdapter {
    /// Always a miss: Google Play documents are read by the general path.
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        throw JSONFastPathMiss()
    }

    /// ``recognizes(_:)`` for an object, from its keys where they tell: `nil` when it has a member that
    /// only its value can confirm (`kind`; `lineItems` with `subscriptionState`; `purchaseTimeMillis` with
    /// `purchaseState`; a listing's `subscriptions` or `products` with no other format's member), `false`
    /// otherwise.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        if hasKey("kind") { return nil }
        if hasKey("lineItems") && hasKey("subscriptionState") { return nil }
        if hasKey("purchaseTimeMillis") && hasKey("purchaseState") { return nil }
        guard hasKey("subscriptions") || hasKey("products") else { return false }
        return GooglePlayDocumentForm.otherFormatsMemberNames.contains(where: hasKey) ? false : nil
    }
}
