import EntitlementKit
import Foundation

/// The customer-level answers RevenueCat's `CustomerInfo` gives besides entitlements, for one response
/// evaluated at one instant.
///
/// Apps that move from RevenueCat's SDK keep asking these questions (`activeSubscriptions`,
/// `expirationDate(forProductIdentifier:)`, …). They are about store products, not entitlements, so they
/// have no place in the vendor-neutral `EntitlementSnapshot`; the snapshot of the same
/// response is ``snapshot``.
///
/// ```swift
/// let info = try RevenueCatAdapter().customerInfo(from: data, at: .now)
/// if info.activeSubscriptions.contains("gold:monthly") { … }
/// let renewal = info.expirationDate(forProduct: "gold:monthly")
/// ```
///
/// Product keys follow RevenueCat: a purchase with a Google Play base plan is keyed `product:baseplan`
/// (`gold:monthly`; plain `gold` then finds nothing), any other purchase by its product id. Activity uses
/// the same inclusive rule as entitlements, at ``evaluatedAt`` rather than RevenueCat's request date.
public struct RevenueCatCustomerInfo: Sendable, Hashable {
    /// The response mapped into the unified model, evaluated at the same instant.
    public let snapshot: EntitlementSnapshot

    private let expirationDates: ProductKeyedDates
    private let purchaseDates: ProductKeyedDates
    private let oneTimeProductIds: Set<String>

    /// The instant ``activeSubscriptions`` is computed for (the snapshot's `evaluatedAt`).
    public var evaluatedAt: Date { snapshot.evaluatedAt }

    /// The subscriber's `management_url`, `nil` when absent or not a usable absolute URL.
    public var managementURL: URL? { snapshot.managementURL }

    /// Keys of the subscriptions that are active at ``evaluatedAt``: no expiry, or `evaluatedAt` at or
    /// before the expiry. One-time purchases are never listed.
    public var activeSubscriptions: Set<String> {
        Set(
            expirationDates.datesByKey.compactMap { key, date in
                Entitlement.isActive(expirationDate: date, denial: nil, at: evaluatedAt) ? key : nil
            })
    }

    /// Keys of every subscription, active or expired, and the ids of every product bought once.
    public var allPurchasedProductIds: Set<String> {
        expirationDates.keys.union(oneTimeProductIds)
    }

    /// The furthest expiry of any subscription, `nil` when none has one. One-time purchases are ignored.
    public let latestExpirationDate: Date?

    /// The expiry of the subscription keyed `productId` (`gold:monthly` for a Google base plan), `nil`
    /// when there is none or it does not expire.
    public func expirationDate(forProduct productId: String) -> Date? {
        expirationDates.date(forKey: productId)
    }

    /// The latest purchase date of `productId`: a subscription's current period start (keyed
    /// `product:baseplan` for a Google base plan) or a one-time product's last purchase.
    public func purchaseDate(forProduct productId: String) -> Date? {
        purchaseDates.date(forKey: productId)
    }

    init(response: RevenueCatResponse, snapshot: EntitlementSnapshot) {
        self.snapshot = snapshot
        let subscriptions = response.subscriber.subscriptions.values
        expirationDates = ProductKeyedDates(
            subscriptions.map {
                ProductKeyedDates.Entry(
                    productId: $0.productId, planId: $0.productPlanIdentifier, date: $0.expiresDate,
                    isSubscription: true)
            })
        purchaseDates = ProductKeyedDates(
            response.subscriber.purchasesByProductId.map { productId, purchase in
                ProductKeyedDates.Entry(
                    productId: productId, planId: purchase.subscription?.productPlanIdentifier,
                    date: purchase.purchaseDate, isSubscription: purchase.subscription != nil)
            })
        oneTimeProductIds = Set(response.subscriber.nonSubscriptions.compactMap { $1.isEmpty ? nil : $0 })
        latestExpirationDate = subscriptions.compactMap(\.expiresDate).max()
    }
}
