/// A Subscription's `status`, as Stripe spells it on the wire.
enum StripeSubscriptionStatus: Sendable, Hashable {
    case incomplete
    case incompleteExpired
    case trialing
    case active
    case pastDue
    case unpaid
    case canceled
    case paused
    /// A value this version does not know, kept as sent: it grants nothing.
    case unrecognized(String)

    init(wire raw: String) {
        switch raw {
        case "incomplete": self = .incomplete
        case "incomplete_expired": self = .incompleteExpired
        case "trialing": self = .trialing
        case "active": self = .active
        case "past_due": self = .pastDue
        case "unpaid": self = .unpaid
        case "canceled": self = .canceled
        case "paused": self = .paused
        default: self = .unrecognized(raw)
        }
    }

    /// The wire spelling.
    var raw: String {
        switch self {
        case .incomplete: "incomplete"
        case .incompleteExpired: "incomplete_expired"
        case .trialing: "trialing"
        case .active: "active"
        case .pastDue: "past_due"
        case .unpaid: "unpaid"
        case .canceled: "canceled"
        case .paused: "paused"
        case .unrecognized(let raw): raw
        }
    }

    /// The statuses that grant access until the expiration date: `active`, `trialing` and `past_due` (access
    /// to the end of the period the failed invoice is for, no grace added). Every other status grants
    /// nothing whatever its dates say.
    var grantsUntilExpiry: Bool {
        switch self {
        case .active, .trialing, .pastDue: true
        default: false
        }
    }
}
