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
                if let current = best[id], !Self.grantsLonger(purchase, than: current, at: instant) { continue }
                best[id] = purchase
            }
        }
        grants = best.keys.sorted().compactMap { id in
            best[id].map { EntitlementGrant(entitlementId: id, purchase: $0) }
        }
    }

    /// Whether `candidate`, met after `current`, wins by ``GrantPrecedence`` at `instant` (a purchase grants
    /// access until its access end, none for ever).
    private static func grantsLonger(_ candidate: SimulatedPurchase, than current: SimulatedPurchase, at instant: Date)
        -> Bool
    {
        precedence(of: candidate, at: instant).wins(over: precedence(of: current, at: instant))
    }

    private static func precedence(of purchase: SimulatedPurchase, at instant: Date) -> GrantPrecedence {
        GrantPrecedence(
            isActive: purchase.accessEnd.map { instant <= $0 } ?? true, expirationDate: purchase.accessEnd,
            purchaseDate: purchase.purchasedAt)
    }

    /// The latest purchase of each subscription product, for wire formats keyed by product id; when
    /// two receipts hold the same product, the one with the furthest-out access.
    var subscriptionsByProduct: [String: SimulatedPurchase] {
        var result: [String: SimulatedPurchase] = [:]
        for purchase in purchases {
            guard case .autoRenewable = purchase.kind else { continue }
            if let current = result[purchase.productId], !Self.grantsLonger(purchase, than: current, at: instant) {
                continue
            }
            result[purchase.productId] = purchase
        }
        return result
    }
}
