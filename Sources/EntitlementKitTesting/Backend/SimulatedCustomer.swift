import EntitlementKit
import Foundation

/// A customer of the simulated backend: the app user ids aliased to it (the first is the original),
/// when it was first seen, and its direct purchases (consumables and non-renewing purchases, which never
/// sit on a receipt: where they are in the store).
struct SimulatedCustomer: Sendable, Hashable {
    var appUserIds: [String]
    var firstSeen: Date
    var directPurchases: [SimulatedPurchaseReference] = []

    var originalAppUserId: String { appUserIds.first ?? "" }
}
