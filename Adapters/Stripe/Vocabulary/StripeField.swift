/// Stripe's JSON member names, each spelled once: the adapter's reader and its format detection use them, and
/// what writes Stripe documents (the bench's ledger inputs) writes them.
///
/// Computed literals rather than stored constants: a read costs what the literal did (no lazy global).
package enum StripeField {
    // Every object, and a list (`{"object": "list", "data", "has_more", "url"}`).
    package static var object: String { "object" }
    package static var id: String { "id" }
    package static var livemode: String { "livemode" }
    package static var created: String { "created" }
    package static var metadata: String { "metadata" }
    package static var data: String { "data" }
    package static var hasMore: String { "has_more" }
    package static var url: String { "url" }

    // The adapter's combined per-customer object.
    package static var subscriptions: String { "subscriptions" }
    package static var checkoutSessions: String { "checkoutSessions" }
    package static var charges: String { "charges" }
    package static var events: String { "events" }

    // A Subscription and its items.
    package static var status: String { "status" }
    package static var cancelAtPeriodEnd: String { "cancel_at_period_end" }
    package static var cancellationDetails: String { "cancellation_details" }
    package static var reason: String { "reason" }
    package static var pauseCollection: String { "pause_collection" }
    package static var items: String { "items" }
    package static var startDate: String { "start_date" }
    package static var currentPeriodStart: String { "current_period_start" }
    package static var currentPeriodEnd: String { "current_period_end" }
    package static var cancelAt: String { "cancel_at" }
    package static var canceledAt: String { "canceled_at" }
    package static var endedAt: String { "ended_at" }
    package static var trialStart: String { "trial_start" }
    package static var trialEnd: String { "trial_end" }
    package static var customer: String { "customer" }
    package static var latestInvoice: String { "latest_invoice" }
    package static var price: String { "price" }
    package static var lookupKey: String { "lookup_key" }
    package static var product: String { "product" }

    // A Checkout Session and a Charge.
    package static var mode: String { "mode" }
    package static var paymentStatus: String { "payment_status" }
    package static var clientReferenceId: String { "client_reference_id" }
    package static var paymentIntent: String { "payment_intent" }
    package static var latestCharge: String { "latest_charge" }
    package static var lineItems: String { "line_items" }
    package static var refunded: String { "refunded" }
    package static var amountRefunded: String { "amount_refunded" }
    package static var refunds: String { "refunds" }

    // An Event.
    package static var type: String { "type" }
    package static var apiVersion: String { "api_version" }
    package static var previousAttributes: String { "previous_attributes" }
}

/// The short name the adapter's readers use for ``StripeField``.
typealias Field = StripeField
