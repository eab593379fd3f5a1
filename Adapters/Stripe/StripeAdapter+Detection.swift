import EntitlementKit
import Foundation

extension StripeAdapter {
    /// ``recognizes(_:)-(JSONValue)`` without making the tree of an object that has neither `object` nor
    /// one of the combined object's containers; the values decide the rest.
    public func recognizes(_ document: JSONNode) -> Bool {
        guard document.kind == .object else { return recognizes(document.value) }
        guard ["object", "subscriptions", "checkoutSessions", "charges", "events"].contains(where: document.has)
        else { return false }
        return recognizes(document.value)
    }
}
