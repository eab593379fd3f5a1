import EntitlementKit

// Recognition (``GooglePlayDocumentForm/recognized(_:)``) is structural and strict, so the CLI never hands
// another vendor's document to this adapter: the `kind` Google puts in every response, or the pairs of
// members no other format has (`lineItems` with `subscriptionState`; `purchaseTimeMillis` with
// `purchaseState`), or a listing — EntitlementKit's own shape — whose `subscriptions` / `products` are arrays
// of `{…, "purchase": …}`. Other members do not matter (a document another format claims too is refused as
// ambiguous by ``FormatDetector``), except in a listing whose arrays are all empty: that says nothing about
// whose it is, so it is claimed only when it holds nothing else.
extension GooglePlayDocumentForm {
    /// The form of `document` when its shape is unambiguous, else `nil`.
    static func recognized(_ document: JSONValue) -> GooglePlayDocumentForm? {
        guard case .object(let members) = document else { return nil }
        if case .string(let kind)? = members[Field.kind] {
            switch kind {
            case subscriptionKind: return .subscription
            case productKind: return .product
            default: return nil
            }
        }
        if case .array? = members[Field.lineItems], case .string? = members[Field.subscriptionState] {
            return .subscription
        } else if case .string? = members[Field.purchaseTimeMillis], case .integer? = members[Field.purchaseState] {
            return .product
        }
        let lists = listingMembers.compactMap { members[$0] }
        guard !lists.isEmpty else { return nil }
        var marked = false
        for list in lists {
            // Each element of a listing is `{"purchaseToken", "purchase", …}`.
            guard case .array(let elements) = list else { return nil }
            if let first = elements.first {
                guard first[Field.purchase] != nil else { return nil }
                marked = true
            }
        }
        // Empty lists say nothing about whose they are: such a listing must hold nothing else.
        return marked || members.keys.allSatisfy(listingMembers.contains) ? .listing : nil
    }

    /// The members of a listing.
    static let listingMembers: Set<String> = [Field.subscriptions, Field.products]

    /// What ``FormatDetector`` looks for first: `kind`, the members that pair with a state, a listing's.
    static let markers = FormatMarkers(
        memberNames: listingMembers.union([Field.kind, Field.lineItems, Field.purchaseTimeMillis]))
}
