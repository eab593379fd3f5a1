import Crypto
import EntitlementKit
import EntitlementKitTesting
import Foundation
import ServerHarness

/// Stripe webhook bodies and their `Stripe-Signature` headers (HMAC-SHA256 with the endpoint secret).
enum StripeInputs {
    static func signature(_ body: String, at instant: Date, secret: String = TestApp.webhookSecret) -> String {
        let timestamp = Int(instant.timeIntervalSince1970)
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(timestamp),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// A subscription object of ``TestApp/stripePrice`` for `appUserId`.
    static func subscription(id: String, appUserId: String, status: String, start: Date, periodEnd: Date) -> JSONValue {
        let item = JSONValue.object([
            "id": .string("si_\(id)"), "object": .string("subscription_item"), "quantity": .integer(1),
            "price": .object([
                "id": .string(TestApp.stripePrice), "object": .string("price"), "active": .bool(true),
                "currency": .string("usd"), "lookup_key": .null, "product": .string("prod_premium"),
                "type": .string("recurring"), "unit_amount": .integer(999),
                "recurring": .object([
                    "interval": .string("month"), "interval_count": .integer(1), "usage_type": .string("licensed"),
                ]),
            ]),
            "current_period_start": .integer(Int64(start.timeIntervalSince1970)),
            "current_period_end": .integer(Int64(periodEnd.timeIntervalSince1970)),
        ])
        return .object([
            "id": .string(id), "object": .string("subscription"), "status": .string(status),
            "created": .integer(Int64(start.timeIntervalSince1970)),
            "start_date": .integer(Int64(start.timeIntervalSince1970)), "livemode": .bool(true),
            "customer": .string("cus_\(id)"), "metadata": .object(["app_user_id": .string(appUserId)]),
            "latest_invoice": .string("in_\(id)"), "cancel_at": .null, "cancel_at_period_end": .bool(false),
            "canceled_at": status == "canceled" ? .integer(Int64(start.timeIntervalSince1970)) : .null,
            "ended_at": status == "canceled" ? .integer(Int64(start.timeIntervalSince1970)) : .null,
            "trial_start": .null, "trial_end": .null, "pause_collection": .null,
            "collection_method": .string("charge_automatically"), "currency": .string("usd"),
            "items": .object([
                "object": .string("list"), "data": .array([item]), "has_more": .bool(false),
                "url": .string("/v1/subscription_items?subscription=\(id)"),
            ]),
        ])
    }

    /// An event `type` carrying `object`, created at `created`.
    static func event(id: String, type: String, object: JSONValue, created: Date) -> String {
        JSONValue.object([
            "id": .string(id), "object": .string("event"), "type": .string(type),
            "created": .integer(Int64(created.timeIntervalSince1970)), "livemode": .bool(true),
            "api_version": .string("2025-03-31.basil"), "pending_webhooks": .integer(0),
            "request": .object(["id": .null, "idempotency_key": .null]), "data": .object(["object": object]),
        ]).compactText
    }
}

/// Play: a `subscriptionsv2` document (the pushes are the test kit's `SimulatedPlayPushes`).
enum PlayInputs {
    static func subscription(accountToken: String, start: Date, expires: Date) -> Data {
        let purchase = JSONValue.object([
            "kind": .string("androidpublisher#subscriptionPurchaseV2"),
            "startTime": .string(RFC3339.string(from: start)),
            "subscriptionState": .string("SUBSCRIPTION_STATE_ACTIVE"),
            "externalAccountIdentifiers": .object(["obfuscatedExternalAccountId": .string(accountToken)]),
            "lineItems": .array([
                .object([
                    "productId": .string(TestApp.productId), "expiryTime": .string(RFC3339.string(from: expires)),
                    "autoRenewingPlan": .object(["autoRenewEnabled": .bool(true)]),
                    "latestSuccessfulOrderId": .string("GPA.3301-0000-0000-00001"),
                ])
            ]),
        ])
        return Data(purchase.compactText.utf8)
    }
}
