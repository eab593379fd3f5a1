import EntitlementKit
import Foundation

/// How a document's subscriptions chain through `linkedPurchaseToken`.
///
/// Google gives an upgrade, a downgrade, a re-signup and a prepaid top-up a **new** purchase token and
/// links it to the old one. Every purchase of a chain shares the chain's first token as its original
/// transaction id — the oldest token the document shows, which may be a `linkedPurchaseToken` whose own
/// purchase is not in the document — and only the latest purchase of a chain by `startTime` decides
/// access: the older tokens were replaced.
struct PlaySubscriptionChains: Sendable, Hashable {
    /// Per subscription (document order): the chain's first token, `nil` for a bare response that names
    /// no linked token (its own token is not in the response).
    private(set) var originalToken: [String?] = []
    /// Per subscription: whether it is the latest of its chain, the one that decides.
    private(set) var decides: [Bool] = []
    /// Per subscription: the earliest `startTime` in its chain.
    private(set) var chainStart: [Date?] = []

    /// Follows every link. A chain that loops back on itself is refused: it has no first purchase.
    init(_ subscriptions: [PlaySubscriptionPurchase]) throws(DocumentError) {
        var indexByToken: [String: Int] = [:]
        for (index, subscription) in subscriptions.enumerated() {
            if let token = subscription.token { indexByToken[token] = index }
        }

        // The chain key is the first token; a purchase without token or link is a chain of its own.
        var keys: [String] = []
        var depths: [Int] = []
        for (index, subscription) in subscriptions.enumerated() {
            var current = index
            var visited: Set<Int> = [index]
            var depth = 0
            var first: String?
            while true {
                guard let linked = subscriptions[current].linkedPurchaseToken else {
                    first = subscriptions[current].token
                    break
                }
                guard let next = indexByToken[linked] else {
                    first = linked
                    break
                }
                guard visited.insert(next).inserted else {
                    // Reported where the walk began: the path and the value quoted are that purchase's link.
                    let path = subscription.path.appending("linkedPurchaseToken")
                    throw DocumentError(
                        kind: .inconsistent, path: path, offending: .string(subscription.linkedPurchaseToken ?? linked),
                        reason: "leads back to a purchase already in its chain (the links form a loop)")
                }
                current = next
                depth += 1
            }
            originalToken.append(first)
            keys.append(first.map { "token:" + $0 } ?? "purchase:\(index)")
            depths.append(depth)
        }

        var latest: [String: Int] = [:]
        var earliestStart: [String: Date] = [:]
        for (index, subscription) in subscriptions.enumerated() {
            let key = keys[index]
            if let start = subscription.startTime, start < earliestStart[key] ?? .distantFuture {
                earliestStart[key] = start
            }
            guard let current = latest[key] else {
                latest[key] = index
                continue
            }
            if Self.isLater(index, than: current, in: subscriptions, depths: depths) { latest[key] = index }
        }
        decides = subscriptions.indices.map { latest[keys[$0]] == $0 }
        chainStart = subscriptions.indices.map { earliestStart[keys[$0]] }
    }

    /// The later by `startTime` (a pending purchase without one is the earliest); on a tie, the one further
    /// down the links, then the greater token, then the later in the document — so the answer never
    /// depends on the order of the listing.
    private static func isLater(
        _ candidate: Int, than current: Int, in subscriptions: [PlaySubscriptionPurchase], depths: [Int]
    ) -> Bool {
        let (a, b) = (subscriptions[candidate], subscriptions[current])
        let (startA, startB) = (a.startTime ?? .distantPast, b.startTime ?? .distantPast)
        if startA != startB { return startA > startB }
        if depths[candidate] != depths[current] { return depths[candidate] > depths[current] }
        let (tokenA, tokenB) = (a.token ?? "", b.token ?? "")
        if tokenA != tokenB { return tokenB.utf8.lexicographicallyPrecedes(tokenA.utf8) }
        return candidate > current
    }
}
