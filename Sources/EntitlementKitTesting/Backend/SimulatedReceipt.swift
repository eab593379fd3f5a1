import EntitlementKit

/// A store account's receipt: its auto-renewable and non-consumable purchases, owned by at most one
/// customer.
struct SimulatedReceipt: Sendable, Hashable {
    var store: Store
    var owner: Int?
    var purchases: [SimulatedPurchase] = []

    /// The latest purchase of `productId`, where lifecycle events land.
    func latestIndex(of productId: String) -> Int? {
        purchases.lastIndex { $0.productId == productId }
    }
}
