/// `subscriptionState` of a `SubscriptionPurchaseV2`, as Google spells it on the wire.
enum PlaySubscriptionState: Sendable, Hashable {
    case unspecified
    case pending
    case active
    case paused
    case inGracePeriod
    case onHold
    case canceled
    case expired
    case pendingPurchaseCanceled
    /// A value this version does not know, kept as sent.
    case unrecognized(String)

    init(wire raw: String) {
        switch raw {
        case "SUBSCRIPTION_STATE_UNSPECIFIED": self = .unspecified
        case "SUBSCRIPTION_STATE_PENDING": self = .pending
        case "SUBSCRIPTION_STATE_ACTIVE": self = .active
        case "SUBSCRIPTION_STATE_PAUSED": self = .paused
        case "SUBSCRIPTION_STATE_IN_GRACE_PERIOD": self = .inGracePeriod
        case "SUBSCRIPTION_STATE_ON_HOLD": self = .onHold
        case "SUBSCRIPTION_STATE_CANCELED": self = .canceled
        case "SUBSCRIPTION_STATE_EXPIRED": self = .expired
        case "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED": self = .pendingPurchaseCanceled
        default: self = .unrecognized(raw)
        }
    }

    /// The states in which a line item grants access until its `expiryTime`: active, in grace period
    /// (Google keeps access while it retries the payment) and canceled-but-not-expired. Every other
    /// state — on hold, paused, expired, pending, pending purchase canceled, unspecified, unknown — grants
    /// nothing, whatever the expiry says.
    var grantsUntilExpiry: Bool {
        switch self {
        case .active, .inGracePeriod, .canceled: true
        default: false
        }
    }

    /// The state as Google spells it (`SUBSCRIPTION_STATE_ON_HOLD`): the raw value of the denial a state
    /// that grants nothing makes.
    var wireValue: String {
        switch self {
        case .unspecified: "SUBSCRIPTION_STATE_UNSPECIFIED"
        case .pending: "SUBSCRIPTION_STATE_PENDING"
        case .active: "SUBSCRIPTION_STATE_ACTIVE"
        case .paused: "SUBSCRIPTION_STATE_PAUSED"
        case .inGracePeriod: "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
        case .onHold: "SUBSCRIPTION_STATE_ON_HOLD"
        case .canceled: "SUBSCRIPTION_STATE_CANCELED"
        case .expired: "SUBSCRIPTION_STATE_EXPIRED"
        case .pendingPurchaseCanceled: "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"
        case .unrecognized(let raw): raw
        }
    }

    /// The states in which Google sets `canceledStateContext`.
    var carriesCancellation: Bool {
        switch self {
        case .canceled, .expired: true
        default: false
        }
    }
}
