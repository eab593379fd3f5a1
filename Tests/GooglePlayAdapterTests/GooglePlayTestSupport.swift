import EntitlementKit
import EntitlementKitGooglePlay
import Foundation
import TestSupport

/// The instant the unit tests evaluate at unless they say otherwise.
let evaluationInstant = instant("2025-09-15T10:00:00Z")

/// One line item: an auto-renewing `acme_pro` monthly item expiring at `expiry`, overridden by `extra`.
func lineItem(
    product: String = "acme_pro", expiry: String? = "2025-10-01T00:00:00Z", autoRenew: Bool? = true,
    order: String? = "GPA.3300-0000-0000-00001", extra: [String: Any] = [:]
) -> [String: Any] {
    var item: [String: Any] = ["productId": product, "offerDetails": ["basePlanId": "monthly"]]
    if let expiry { item["expiryTime"] = expiry }
    if let autoRenew { item["autoRenewingPlan"] = ["autoRenewEnabled": autoRenew] }
    if let order { item["latestSuccessfulOrderId"] = order }
    return item.merging(extra) { _, new in new }
}

/// A `SubscriptionPurchaseV2` in `state` (the suffix after `SUBSCRIPTION_STATE_`), overridden by `extra`.
func subscription(
    _ state: String = "ACTIVE", start: String? = "2025-06-01T00:00:00Z", items: [[String: Any]] = [lineItem()],
    extra: [String: Any] = [:]
) -> [String: Any] {
    var purchase: [String: Any] = ["subscriptionState": "SUBSCRIPTION_STATE_" + state, "lineItems": items]
    if let start { purchase["startTime"] = start }
    return purchase.merging(extra) { _, new in new }
}

/// A `ProductPurchase`, overridden by `extra`.
func productPurchase(
    time: String = "1750000000000", state: Int = 0, consumption: Int = 0, extra: [String: Any] = [:]
) -> [String: Any] {
    [
        "purchaseTimeMillis": time, "purchaseState": state, "consumptionState": consumption,
        "orderId": "GPA.3300-0000-0000-00009",
    ].merging(extra) { _, new in new }
}

/// The listing form around subscriptions `(token, purchase)` and products `(productId, token, purchase)`.
func listing(
    subscriptions: [(String, [String: Any])] = [], products: [(String, String, [String: Any])] = []
) -> [String: Any] {
    [
        "subscriptions": subscriptions.map { ["purchaseToken": $0.0, "purchase": $0.1] },
        "products": products.map { ["productId": $0.0, "purchaseToken": $0.1, "purchase": $0.2] },
    ]
}

/// Maps `document` at `at` with `catalog` (none by default: every product its own entitlement).
func playSnapshot(
    _ document: [String: Any], at: Date = evaluationInstant, catalog: EntitlementCatalog = .identity
) throws(DocumentError) -> EntitlementSnapshot {
    try GooglePlayAdapter(catalog: catalog).snapshot(from: json(document), at: at)
}

/// The error the adapter refuses `document` with, or `nil` when it maps it.
func playFailure(_ document: [String: Any], catalog: EntitlementCatalog = .identity) -> DocumentError? {
    do throws(DocumentError) {
        _ = try playSnapshot(document, catalog: catalog)
        return nil
    } catch {
        return error
    }
}

/// The error for raw bytes.
func playFailure(text: String) -> DocumentError? {
    do throws(DocumentError) {
        _ = try GooglePlayAdapter().snapshot(from: Data(text.utf8), at: evaluationInstant)
        return nil
    } catch {
        return error
    }
}
