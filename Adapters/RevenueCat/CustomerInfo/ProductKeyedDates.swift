import Foundation

/// Dates keyed the way RevenueCat's customer-level answers key products: `product:baseplan` when a
/// purchase has a `product_plan_identifier` (Google Play), the bare product id otherwise.
///
/// Two purchases can land on one key (a subscription `pro` with plan `monthly` and a product whose own id
/// is `pro:monthly`). RevenueCat resolves that deterministically (purchases-ios PR #6337); so does this,
/// in order: a date over no date, the later date, the purchase whose own id already is the key, a
/// subscription over a one-time purchase, then the smaller product id (UTF-8 bytes).
struct ProductKeyedDates: Sendable, Hashable {
    /// One candidate for a key.
    struct Entry: Sendable, Hashable {
        /// The product's own id in the document.
        var productId: String
        /// `product_plan_identifier`, when any.
        var planId: String?
        /// The date the map holds for it.
        var date: Date?
        /// Whether it came from `subscriptions`.
        var isSubscription: Bool

        /// `product:plan`, or the product id.
        var key: String { planId.map { productId + ":" + $0 } ?? productId }
    }

    /// The winning date per key; a `nil` value means the key exists without a date (no expiry).
    private(set) var datesByKey: [String: Date?]

    /// Builds the map, resolving collisions by ``preferred(_:over:)``.
    init(_ entries: [Entry]) {
        var winners: [String: Entry] = [:]
        for entry in entries {
            if let current = winners[entry.key], !Self.preferred(entry, over: current) { continue }
            winners[entry.key] = entry
        }
        datesByKey = winners.mapValues(\.date)
    }

    /// The keys.
    var keys: Set<String> { Set(datesByKey.keys) }

    /// The date under `key`; `nil` when the key is absent or has no date.
    func date(forKey key: String) -> Date? {
        datesByKey[key] ?? nil
    }

    /// Whether `candidate` beats `current` for the same key.
    static func preferred(_ candidate: Entry, over current: Entry) -> Bool {
        switch (candidate.date, current.date) {
        case (.some, .none): return true
        case (.none, .some): return false
        case (.some(let new), .some(let old)) where new != old: return new > old
        default: break
        }
        let candidateIsRawKey = candidate.productId == candidate.key
        let currentIsRawKey = current.productId == current.key
        if candidateIsRawKey != currentIsRawKey { return candidateIsRawKey }
        if candidate.isSubscription != current.isSubscription { return candidate.isSubscription }
        return candidate.productId.utf8.lexicographicallyPrecedes(current.productId.utf8)
    }
}
