import EntitlementKit
import Foundation

extension GooglePlayAdapter {
    /// ``recognizes(_:)-(JSONValue)`` without making the tree of an object its keys rule out: one with none
    /// of `kind`; `lineItems` with `subscriptionState`; `purchaseTimeMillis` with `purchaseState`; a
    /// listing's `subscriptions` or `products` with no other format's member. The values decide the rest.
    public func recognizes(_ document: JSONNode) -> Bool {
        guard document.kind == .object else { return recognizes(document.value) }
        let has = document.has
        let mayBePlay =
            has("kind") || (has("lineItems") && has("subscriptionState"))
            || (has("purchaseTimeMillis") && has("purchaseState"))
            || ((has("subscriptions") || has("products"))
                && !GooglePlayDocumentForm.otherFormatsMemberNames.contains { has($0.description) })
        return mayBePlay && recognizes(document.value)
    }
}
