import EntitlementKit
import Foundation

/// The purchase an entitlement's `product_identifier` names: a subscription, or the latest purchase of
/// a one-time product.
enum RevenueCatPurchase: Sendable, Hashable {
    /// `subscriptions[product]`.
    case subscription(RevenueCatSubscription)
    /// The last element of `non_subscriptions[product]`.
    case nonSubscription(RevenueCatNonSubscription)

    /// `purchase_date`.
    var purchaseDate: Date {
        switch self {
        case .subscription(let subscription): subscription.purchaseDate
        case .nonSubscription(let purchase): purchase.purchaseDate
        }
    }

    /// `original_purchase_date`.
    var originalPurchaseDate: Date? {
        switch self {
        case .subscription(let subscription): subscription.originalPurchaseDate
        case .nonSubscription(let purchase): purchase.originalPurchaseDate
        }
    }

    /// `store`.
    var store: LenientRawValue {
        switch self {
        case .subscription(let subscription): subscription.store
        case .nonSubscription(let purchase): purchase.store
        }
    }

    /// `is_sandbox`.
    var isSandbox: Bool {
        switch self {
        case .subscription(let subscription): subscription.isSandbox
        case .nonSubscription(let purchase): purchase.isSandbox
        }
    }

    /// `store_transaction_id`.
    var storeTransactionId: String? {
        switch self {
        case .subscription(let subscription): subscription.storeTransactionId
        case .nonSubscription(let purchase): purchase.storeTransactionId
        }
    }

    /// The subscription, when it is one.
    var subscription: RevenueCatSubscription? {
        if case .subscription(let subscription) = self { return subscription }
        return nil
    }
}

extension RevenueCatSubscriber {
    /// Every product's purchase by bare product id: the subscriptions, then each one-time product's
    /// **last** purchase, which replaces a subscription listed under the same id. This is the map
    /// RevenueCat's iOS SDK (v4 and later) joins entitlements against.
    var purchasesByProductId: [String: RevenueCatPurchase] {
        var purchases = subscriptions.mapValues(RevenueCatPurchase.subscription)
        for (productId, list) in nonSubscriptions {
            if let last = list.last { purchases[productId] = .nonSubscription(last) }
        }
        return purchases
    }

    /// `purchasesByProductId[productId]` without building the map (the snapshot mapping looks up one
    /// product per entitlement): the one-time product's last purchase, else the subscription.
    func purchase(forProduct productId: String) -> RevenueCatPurchase? {
        if let last = nonSubscriptions[productId]?.last { return .nonSubscription(last) }
        return subscriptions[productId].map(RevenueCatPurchase.subscription)
    }

    /// Every one-time purchase of every product, oldest first. Purchases made at the same instant are
    /// ordered by product id (UTF-8 bytes), then by their place in the product's list.
    var nonSubscriptionPurchasesOldestFirst: [RevenueCatNonSubscription] {
        nonSubscriptions.values.joined().sorted { first, second in
            if first.purchaseDate != second.purchaseDate { return first.purchaseDate < second.purchaseDate }
            if first.productId != second.productId {
                return first.productId.utf8.lexicographicallyPrecedes(second.productId.utf8)
            }
            return first.index < second.index
        }
    }
}
