import EntitlementKit
import Foundation

/// What the backend tells about one entitlement of a customer at an instant: the purchase that grants
/// it with the furthest-out access, as RevenueCat documents for several purchases granting one
/// entitlement.
struct EntitlementGrant: Sendable, Hashable {
    let entitlementId: String
    let purchase: SimulatedPurchase
}

/// A customer's purchases as the backend renders them.
struct CustomerView: Sendable, Hashable {
    let customer: SimulatedCustomer
    /// Every purchase the customer holds (receipts and direct), oldest first.
    let purchases: [SimulatedPurchase]
    /// One grant per entitlement id, sorted by id.
    let grants: [EntitlementGrant]
    /// True time of the answer.
    let instant: Date

    init(customer: SimulatedCustomer, purchases: [SimulatedPurchase], at instant: Date) {
        self.customer = customer
        self.purchases = purchases.sorted { $0.purchasedAt < $1.purchasedAt }
        self.instant = instant
        var best: [String: SimulatedPurchase] = [:]
        for purchase in self.purchases {
            for id in purchase.entitlements {
                if let current = best[id], !Self.grantsLonger(purchase, than: current) { continue }
                best[id] = purchase
            }
        }
        grants = best.keys.sorted().compactMap { id in
            best[id].map { EntitlementGrant(entitlementId: id, purchase: $0) }
        }
    }

    /// Furthest-out access wins (no end is the furthest); on a tie, the later purchase.
    private static func grantsLonger(_ candidate: SimulatedPurchase, than current: SimulatedPurchase) -> Bool {
        switch (candidate.accessEnd, current.accessEnd) {
        case (nil, nil): return candidate.purchasedAt >= current.purchasedAt
        case (nil, _): return true
        case (_, nil): return false
        case (let left?, let right?): return left != right ? left > right : candidate.purchasedAt >= current.purchasedAt
        }
    }

    /// The latest purchase of each subscription product, for wire formats keyed by product id; when
    /// two receipts hold the same product, the one with the furthest-out access.
    var subscriptionsByProduct: [String: SimulatedPurchase] {
        var result: [String: SimulatedPurchase] = [:]
        for purchase in purchases {
            guard case .autoRenewable = purchase.kind else { continue }
            if let current = result[purchase.productId], !Self.grantsLonger(purchase, than: current) { continue }
            result[purchase.productId] = purchase
        }
        return result
    }
}
