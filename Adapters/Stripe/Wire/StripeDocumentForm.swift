import EntitlementKit

/// Which Stripe document a JSON value is, from its top-level `object`.
///
/// Recognition (``recognized(_:)``) is strict, so the CLI never hands another vendor's document to this
/// adapter: a top-level `object` of `subscription`, `checkout.session` or `event`, a `list` whose every
/// element is a Subscription or a Checkout Session, or a combined per-customer object whose first element
/// (of its first non-empty container) says it is a Stripe object.
enum StripeDocumentForm: Sendable, Hashable {
    /// A Subscription.
    case subscription
    /// A list object of Subscriptions and Checkout Sessions.
    case list
    /// A Checkout Session.
    case checkoutSession
    /// An Event: a webhook body or a retrieved event.
    case event
    /// `{"subscriptions": […], "checkoutSessions": […], "charges": […], "events": […]}`.
    case combined

    /// The combined object's containers, in candidate order, each with the `object` its elements must have.
    static let containers: [(key: String, object: String)] = [
        (Field.subscriptions, "subscription"), (Field.checkoutSessions, "checkout.session"), (Field.charges, "charge"),
        (Field.events, "event"),
    ]

    /// What ``FormatDetector`` looks for first: `object`, or a container of the combined object.
    static let markers = FormatMarkers(memberNames: Set([Field.object] + containers.map(\.key)))

    /// The form of `document` when its shape is unambiguous, else `nil`.
    static func recognized(_ document: JSONValue) -> StripeDocumentForm? {
        guard case .object(let members) = document else { return nil }
        if let object = members[Field.object] {
            guard case .string(let kind) = object else { return nil }
            switch kind {
            case "subscription": return .subscription
            case "checkout.session": return .checkoutSession
            case "event": return .event
            case "list":
                guard case .array(let elements)? = members[Field.data] else { return nil }
                // An empty list names no kind of object (Qonversion's v4 lists share the envelope): it is
                // Stripe's when its `url` is under Stripe's `/v1/`.
                if elements.isEmpty {
                    guard case .string(let url)? = members[Field.url], url.hasPrefix("/v1/") else { return nil }
                    return .list
                }
                let allRead = elements.allSatisfy { element in
                    guard case .string(let kind)? = element[Field.object] else { return false }
                    return kind == "subscription" || kind == "checkout.session"
                }
                return allRead ? .list : nil
            default: return nil
            }
        }
        for (key, _) in containers {
            guard let container = members[key] else { continue }
            var elements: [JSONValue]
            switch container {
            case .array(let array): elements = array
            case .object:
                guard case .array(let data)? = container[Field.data] else { return nil }
                elements = data
            default: continue
            }
            guard let first = elements.first else { continue }
            guard case .string(let kind)? = first[Field.object] else { return nil }
            return containers.contains { $0.object == kind } ? .combined : nil
        }
        return nil
    }

    /// The form `document` is read as when the caller named this adapter: looser than ``recognized(_:)``, so
    /// that a damaged document reaches its reader and fails there with a located error, and Stripe objects
    /// this adapter does not read (a Customer, an Invoice) are refused by name.
    static func assumed(_ document: JSONNode) throws(DocumentError) -> StripeDocumentForm {
        guard document.kind == .object else { throw notStripe(document) }
        if let objectNode = document.member(Field.object) {
            let kind = try objectNode.string()
            switch kind {
            case "subscription": return .subscription
            case "checkout.session": return .checkoutSession
            case "event": return .event
            case "list": return .list
            default:
                throw DocumentError(
                    kind: .unrecognizedFormat, path: objectNode.path, offending: objectNode.value,
                    reason:
                        "is not a Stripe document this adapter reads (a subscription, a list, a checkout.session, an event, or the combined per-customer object)"
                )
            }
        }
        guard containers.contains(where: { document.has($0.key) }) else { throw notStripe(document) }
        return .combined
    }

    private static func notStripe(_ document: JSONNode) -> DocumentError {
        var value: String?
        if document.kind != .object { value = document.value.compactText }
        return DocumentError(
            kind: .unrecognizedFormat, path: document.path, value: value,
            reason:
                "is not a Stripe document: a subscription, a list, a checkout.session, an event, or {\"subscriptions\", \"checkoutSessions\", \"charges\", \"events\"}"
        )
    }
}
