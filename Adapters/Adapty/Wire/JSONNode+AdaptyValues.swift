import EntitlementKit
import Foundation

// Field readers shared by Adapty's four shapes. Every present, non-null value must have the JSON type
// Adapty's SDKs decode it as (a wrong type makes their decoders throw, and here fails the document);
// `null` and absence both mean "not said". Enumerations are the exception: they decide no access, so a
// value of the wrong type never fails; it reads as "not recognised", like an unknown string, or — where the
// contract's rule asks only whether the value is sent (offer types, `cancellation_reason`) — as sent.

extension JSONNode {
    /// The member `key` when it is a string; `nil` when absent, `null` or of another JSON type. For
    /// enumerations only, which map every unreadable value to `unknown` and never fail a document.
    func adaptyEnumeration(_ key: String) -> String? {
        adaptyEnumerationValue(key).name
    }

    /// The member `key` as an enumeration whose presence matters (an offer type, `cancellation_reason`):
    /// absent or `null` is none, a string is kept, any other value is sent but unnamed. Never fails.
    func adaptyEnumerationValue(_ key: String) -> AdaptyEnumerationValue {
        guard let node = member(key), !node.isNull else { return .none }
        return node.stringValue.map(AdaptyEnumerationValue.named) ?? .unnamed
    }

    /// The member `key` as a JSON boolean, `nil` when absent or `null`.
    func adaptyBool(_ key: String) throws(DocumentError) -> Bool? {
        try optional(key)?.bool()
    }

    /// A container (`paid_access_levels`, `subscriptions`, `non_subscriptions`) of the object shapes:
    /// an object, or absent / `null` for none. Its members in key order, so reading is deterministic.
    func adaptyObjectContainer(_ key: String) throws(DocumentError) -> [(key: String, node: JSONNode)] {
        try optional(key)?.membersInKeyOrder() ?? []
    }

    /// A container of server API v2 (`access_levels`, `subscriptions`, `non_subscriptions`): an array,
    /// or absent / `null` for none.
    func adaptyArrayContainer(_ key: String) throws(DocumentError) -> [JSONNode] {
        try optional(key)?.elements() ?? []
    }

    /// `timestamp`: the server's time in milliseconds since 1970. `0` and negative values (the bridge
    /// sends `-1` for a profile built on the device) mean "not said"; a value past 9999-12-31 is refused.
    func adaptyTimestamp(_ key: String) throws(DocumentError) -> Date? {
        guard let node = try optional(key) else { return nil }
        let milliseconds = try node.integer()
        guard milliseconds > 0 else { return nil }
        guard let date = EpochTime.date(millisecondsSince1970: milliseconds) else {
            throw node.invalid("is not a plausible count of milliseconds since 1970")
        }
        return date
    }
}
