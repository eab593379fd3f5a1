import EntitlementKit
import Foundation

// The Stripe adapter has no fast reader, but it takes part in the bulk decoder's fast format detection:
// without a say on the keys, one adapter without a fast path would send every detected record of every
// backend down the general path.
extension StripeAdapter: FastPathAdapter {
    /// Always a miss: Stripe documents are read by the general path.
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        throw JSONFastPathMiss()
    }

    /// ``recognizes(_:)`` for an object, from its keys where they tell: `nil` when it has `object` or one of
    /// the combined object's containers (only the values can confirm), `false` otherwise.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        if hasKey("object") { return nil }
        let containers: [StaticString] = ["subscriptions", "checkoutSessions", "charges", "events"]
        return containers.contains(where: hasKey) ? nil : false
    }
}
