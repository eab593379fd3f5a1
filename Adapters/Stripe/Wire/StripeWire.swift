import EntitlementKit
import Foundation

// The parts of Stripe's objects the mapping reads, already type-checked: Subscriptions (both API-version
// shapes), Checkout Sessions, Charges, and the Events that carry them. Everything else is ignored.
//
// Internal types: the public face of the module is the unified model.

/// Every object one document holds, in candidate order (stripe-mapping.md, "Candidates").
struct StripeObjects: Sendable, Hashable {
    /// The subscriptions: fetched ones in document order, then those from events in the order of their
    /// first event, each folded to the state of the event that wins.
    var subscriptions: [StripeSubscription] = []
    /// The Checkout Sessions, in the same order.
    var sessions: [StripeCheckoutSession] = []
    /// Every Charge read: the `charges` container and each `charge.*` event's (all versions are kept: any
    /// refunded one revokes).
    var charges: [StripeCharge] = []
    /// The greatest `created` of the events read (skipped types not counted); `nil` without events.
    var newestEvent: Date?
}

/// A Stripe `subscription`.
struct StripeSubscription: Sendable, Hashable {
    /// `sub_…`.
    var id: String
    /// `status`.
    var status: StripeSubscriptionStatus
    /// `livemode`.
    var livemode: Bool
    /// `created`.
    var created: Date
    /// `start_date`.
    var startDate: Date?
    /// The top-level `current_period_start` / `current_period_end` (API versions before 2025-03-31.basil).
    var currentPeriodStart: Date?
    var currentPeriodEnd: Date?
    /// `cancel_at`, `canceled_at`, `ended_at`, `trial_start`, `trial_end`.
    var cancelAt: Date?
    var canceledAt: Date?
    var endedAt: Date?
    var trialStart: Date?
    var trialEnd: Date?
    /// `cancel_at_period_end` (absent is false).
    var cancelAtPeriodEnd: Bool
    /// `cancellation_details.reason`.
    var cancellationReason: String?
    /// `pause_collection` is an object (payment collection paused, service kept).
    var collectionPaused: Bool
    /// `customer`, a `cus_…` string or an expanded Customer's `id`.
    var customer: String?
    /// `latest_invoice`, a string or an expanded Invoice's `id`.
    var latestInvoice: String?
    /// `metadata[K]` for the configured key, when a non-empty string.
    var appUserId: String?
    /// `items.data`, in order.
    var items: [StripeSubscriptionItem]
}

/// One element of a Subscription's `items.data`.
struct StripeSubscriptionItem: Sendable, Hashable {
    /// `price`.
    var price: StripePrice
    /// `current_period_start` / `current_period_end` (API 2025-03-31.basil and later).
    var currentPeriodStart: Date?
    var currentPeriodEnd: Date?
}

/// The parts of a `price` that name what was bought.
struct StripePrice: Sendable, Hashable {
    /// `price_…`.
    var id: String
    /// `lookup_key`, when non-empty.
    var lookupKey: String?
    /// `product`: a `prod_…` string or an expanded Product's `id`.
    var productId: String
}

/// A `checkout.session`.
struct StripeCheckoutSession: Sendable, Hashable {
    /// `cs_…`.
    var id: String
    /// `livemode`.
    var livemode: Bool
    /// `created`.
    var created: Date
    /// `mode`: `payment`, `subscription`, `setup`, or a value this version does not know.
    var mode: String
    /// `status` (`open`, `complete`, `expired`); `nil` when null.
    var status: String?
    /// `payment_status` (`paid`, `unpaid`, `no_payment_required`).
    var paymentStatus: String?
    /// `customer`, a string or an expanded Customer's `id`.
    var customer: String?
    /// `metadata[K]`, else `client_reference_id`, when a non-empty string.
    var appUserId: String?
    /// `payment_intent`, a string or an expanded PaymentIntent's `id`.
    var paymentIntentId: String?
    /// The expanded `payment_intent.latest_charge`, when it is an object.
    var latestCharge: StripeCharge?
    /// `line_items.data` in payment mode; empty otherwise.
    var lineItems: [StripePrice]

    /// A one-time purchase: only `payment` mode yields candidates.
    var isPayment: Bool { mode == "payment" }
}

/// A `charge`: only what tells whether it was refunded.
struct StripeCharge: Sendable, Hashable {
    /// `ch_…`.
    var id: String
    /// `livemode`, when sent.
    var livemode: Bool?
    /// `refunded`: fully refunded (a partial refund leaves it false).
    var refunded: Bool
    /// `payment_intent`, a string or an expanded PaymentIntent's `id`.
    var paymentIntentId: String?
    /// `refunds.data[].created`, in order.
    var refundDates: [Date]
}

/// The Event envelope of a webhook body or a stored event.
struct StripeEvent: Sendable, Hashable {
    /// `evt_…`.
    var id: String
    /// `type`.
    var type: String
    /// `created`.
    var created: Date
    /// `livemode`.
    var livemode: Bool
    /// `data.object`.
    var object: JSONNode

    /// What an event's `type` says it carries.
    enum Carried: Sendable, Hashable {
        case subscription
        case checkoutSession
        case charge
        /// A type this adapter does not read (`invoice.paid`, `charge.refund.updated`, …).
        case unread
    }

    /// The object `type` carries.
    var carried: Carried {
        if type.hasPrefix("customer.subscription.") { return .subscription }
        if type.hasPrefix("checkout.session.") { return .checkoutSession }
        if type.hasPrefix("charge.refund.") || type.hasPrefix("charge.dispute.") { return .unread }
        if type.hasPrefix("charge.") { return .charge }
        return .unread
    }

    /// Where one object's events stand among each other within a second: a creation before its updates,
    /// a deletion after them.
    var rank: Int {
        switch type {
        case "customer.subscription.created", "checkout.session.completed": 0
        case "customer.subscription.deleted": 2
        default: 1
        }
    }
}
