import EntitlementKit

// Adapty's raw values → the unified enums. Matching is exact (the wire is snake_case lowercase, except
// v2's `environment`); anything unlisted becomes `.unknown`, never an error and never a guessed value.

extension Store {
    /// `store`: `app_store`, `play_store`, `stripe`, `paddle`, `amazon`; `adapty` (a grant from the dashboard
    /// or the server API, product `adapty_server_side_product`) is `promotional`.
    init(adapty store: String?) {
        self = store.flatMap { Self.adaptyNames[$0] } ?? .unknown
    }

    /// Adapty's `store` values, read by the adapter and written by the simulated backend.
    package static let adaptyNames: [String: Store] = [
        "app_store": .appStore, "play_store": .playStore, "stripe": .stripe, "paddle": .paddle, "amazon": .amazon,
        "adapty": .promotional,
    ]

    /// Adapty's `store` value for this store, or `nil` for one Adapty does not name.
    package var adaptyName: String? {
        Self.adaptyNames.first { $0.value == self }?.key
    }
}

extension GrantType {
    /// A level granted by Adapty itself (store `adapty`) is `manual`; everything else was bought.
    init(adaptyStore store: String?) {
        self = store == "adapty" ? .manual : .purchase
    }
}

extension PeriodType {
    /// Shapes A, B, D: the introductory offer applied in the current period wins (`free_trial` → trial,
    /// any other non-null value → intro), then the promotional one (any non-null value → promotional);
    /// none → normal. A value that is not a string still says which kind of offer applies.
    init(adaptyIntroductory introductory: AdaptyEnumerationValue, promotional: AdaptyEnumerationValue) {
        switch (introductory, promotional) {
        case (.named("free_trial"), _): self = .trial
        case (.named, _), (.unnamed, _): self = .intro
        case (.none, .named), (.none, .unnamed): self = .promotional
        case (.none, .none): self = .normal
        }
    }

    /// Server API v2: `offer.category` `introductory` with `offer.type` `free_trial` → trial, any other
    /// introductory offer → intro; `promotional`, `offer_code`, `win_back` → promotional; no offer →
    /// normal; any other category → unknown.
    init(adaptyOffer offer: AdaptyV2Offer?) {
        guard let offer else {
            self = .normal
            return
        }
        switch offer.category {
        case "introductory": self = offer.type == "free_trial" ? .trial : .intro
        case "promotional", "offer_code", "win_back": self = .promotional
        default: self = .unknown
        }
    }
}

extension Environment {
    /// `is_sandbox` of shapes A, B, D; not sent → unknown.
    init(adaptySandbox isSandbox: Bool?) {
        switch isSandbox {
        case true?: self = .sandbox
        case false?: self = .production
        case nil: self = .unknown
        }
    }

    /// v2 `environment`: `Sandbox` / `Production` (case is not significant).
    init(adaptyV2 environment: String?) {
        switch environment?.lowercased() {
        case "sandbox": self = .sandbox
        case "production": self = .production
        default: self = .unknown
        }
    }
}

/// `cancellation_reason` → the unified reason's raw value (`CancellationReason`): `nil` when Adapty does not say,
/// `refunded` whenever `is_refund` is true, `unknown` for a value it does not list.
enum AdaptyCancellationReason {
    /// The reason as read: a value sent that is not a string is a reason nobody can name, `unknown` (the
    /// contract keeps `null` for "Adapty does not say").
    static func unifiedRawValue(of reason: AdaptyEnumerationValue, isRefund: Bool = false) -> String? {
        switch reason {
        case .none: unifiedRawValue(of: nil as String?, isRefund: isRefund)
        case .named(let text): unifiedRawValue(of: text, isRefund: isRefund)
        case .unnamed: isRefund ? "refunded" : "unknown"
        }
    }

    /// A reason sent as a string (`nil` when none was).
    static func unifiedRawValue(of reason: String?, isRefund: Bool = false) -> String? {
        if isRefund { return "refunded" }
        guard let reason, !reason.isEmpty else { return nil }
        switch reason {
        case "voluntarily_cancelled": return "customerCancelled"
        case "billing_error": return "billingError"
        case "price_increase": return "priceIncrease"
        case "product_was_not_available": return "productUnavailable"
        case "refund": return "refunded"
        case "upgraded": return "upgraded"
        case "cancelled_by_developer", "adapty_revoked": return "developerCancelled"
        case "new_subscription_replace": return "replaced"
        default: return "unknown"
        }
    }

}

/// Where an Adapty access level grants nothing whatever its dates say, and why (the mapping article's
/// Denials list).
enum AdaptyDenial {
    /// v1, SDK and bridge shapes: `is_active: false` denies. `cancellation_reason` `refund` is `refunded`,
    /// `adapty_revoked` `revoked`, `upgraded` `upgraded` (raw: that reason); otherwise `is_refund: true` is
    /// `refunded` with raw `null` (a flag, not a value of Adapty's own); any other inactive level is
    /// `vendorInactive` with raw `false`, the flag that decided it.
    static func v1(_ level: AdaptyAccessLevel) -> Denial? {
        guard !level.isActive else { return nil }
        switch level.cancellationReason.name {
        case "refund": return Denial(.refunded, raw: "refund")
        case "adapty_revoked": return Denial(.revoked, raw: "adapty_revoked")
        case "upgraded": return Denial(.upgraded, raw: "upgraded")
        default: return level.isRefund ? Denial(.refunded) : Denial(.vendorInactive, raw: "false")
        }
    }

    /// v2, which has no `is_active`: its stand-in, `cancellation_reason` `refund` (`refunded`) or
    /// `adapty_revoked` (`revoked`), raw the reason; every other level is decided by its dates.
    static func v2(_ reason: String?) -> Denial? {
        switch reason {
        case "refund": Denial(.refunded, raw: reason)
        case "adapty_revoked": Denial(.revoked, raw: reason)
        default: nil
        }
    }
}
