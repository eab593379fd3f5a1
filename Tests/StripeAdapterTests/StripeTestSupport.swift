import EntitlementKit
import EntitlementKitStripe
import Foundation
import TestSupport

/// The instant the unit tests evaluate at unless they say otherwise.
let evaluationInstant = instant("2025-09-15T10:00:00Z")

/// Seconds since 1970 of a canonical date, as Stripe writes timestamps.
func seconds(_ text: String) -> Int {
    Int(instant(text).timeIntervalSince1970)
}

/// A Stripe list object around `data`.
func stripeList(_ data: [[String: Any]], hasMore: Bool = false) -> [String: Any] {
    ["object": "list", "data": data, "has_more": hasMore, "url": "/v1/test"]
}

/// A subscription item for `price` of `product`, in the basil shape unless its period is `nil`.
func subscriptionItem(
    price: String = "price_pro", product: String = "prod_Pro", lookupKey: String? = nil,
    periodStart: String? = "2025-09-01T00:00:00Z", periodEnd: String? = "2025-10-01T00:00:00Z"
) -> [String: Any] {
    var priceObject: [String: Any] = ["id": price, "object": "price", "product": product]
    priceObject["lookup_key"] = lookupKey ?? NSNull()
    var item: [String: Any] = ["id": "si_1", "object": "subscription_item", "price": priceObject]
    if let periodStart { item["current_period_start"] = seconds(periodStart) }
    if let periodEnd { item["current_period_end"] = seconds(periodEnd) }
    return item
}

/// A live subscription in `status`, started 2025-06-01, overridden by `extra`.
func subscription(
    _ status: String = "active", id: String = "sub_1", items: [[String: Any]] = [subscriptionItem()],
    extra: [String: Any] = [:]
) -> [String: Any] {
    let base: [String: Any] = [
        "id": id, "object": "subscription", "status": status, "livemode": true,
        "created": seconds("2025-06-01T00:00:00Z"), "start_date": seconds("2025-06-01T00:00:00Z"),
        "customer": "cus_1", "items": stripeList(items),
    ]
    return base.merging(extra) { _, new in new }
}

/// A complete, paid payment-mode Checkout Session for one lifetime product, overridden by `extra`.
func checkoutSession(id: String = "cs_1", extra: [String: Any] = [:]) -> [String: Any] {
    let price: [String: Any] = ["id": "price_life", "object": "price", "product": "prod_Life"]
    let base: [String: Any] = [
        "id": id, "object": "checkout.session", "mode": "payment", "status": "complete", "payment_status": "paid",
        "livemode": true, "created": seconds("2025-07-01T00:00:00Z"), "payment_intent": "pi_1",
        "line_items": stripeList([["id": "li_1", "object": "item", "price": price]]),
    ]
    return base.merging(extra) { _, new in new }
}

/// An event of `type` created at `created` carrying `object`.
func stripeEvent(_ type: String, id: String = "evt_1", created: String, object: [String: Any]) -> [String: Any] {
    [
        "id": id, "object": "event", "type": type, "created": seconds(created), "livemode": true,
        "api_version": "2025-03-31.basil", "data": ["object": object],
    ]
}

/// Maps `document` at `at` with `configuration`.
func stripeSnapshot(
    _ document: [String: Any], at: Date = evaluationInstant,
    configuration: StripeAdapter.Configuration = .init()
) throws(DocumentError) -> EntitlementSnapshot {
    try StripeAdapter(configuration: configuration).snapshot(from: json(document), at: at)
}

/// The error the adapter refuses `document` with, or `nil` when it maps it.
func stripeFailure(_ document: [String: Any]) -> DocumentError? {
    do throws(DocumentError) {
        _ = try stripeSnapshot(document)
        return nil
    } catch {
        return error
    }
}

/// The error for raw bytes.
func stripeFailure(text: String) -> DocumentError? {
    do throws(DocumentError) {
        _ = try StripeAdapter().snapshot(from: Data(text.utf8), at: evaluationInstant)
        return nil
    } catch {
        return error
    }
}
