import EntitlementKitJSON

extension JSONNode {
    /// The first (by bytes) member name of this object that is not in `vocabulary`, or `nil` when every
    /// member is, or this is not an object. Read in place, without making the tree: a format claims a
    /// document that carries none of its marks (an empty list) only when it holds nothing else.
    package func firstMemberName(outside vocabulary: Set<String>) -> String? {
        var first: String?
        try? forEachMember { key, _ in
            if !vocabulary.contains(key), first.map({ key.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true {
                first = key
            }
        }
        return first
    }
}
