import EntitlementKit

// Qonversion's raw values → the unified enums. Matching is exact (the wire is snake_case lowercase);
// anything unlisted becomes `.unknown`, never an error and never a guessed value. Where Qonversion's
// SDKs default an unknown value to something concrete (grant type → purchase, environment →
// production, ownership → owner), EntitlementKit says `unknown` instead.

extension RenewState {
    /// v1 integer codes −1…3 and the REST names; `canceled` and `cancelled` alike.
    init(qonversion code: QonversionRenewStateCode?) {
        switch code {
        case .code(-1), .name("non_renewable"): self = .nonRenewable
        case .code(1), .name("will_renew"): self = .willRenew
        case .code(2), .name("canceled"), .name("cancelled"): self = .cancelled
        case .code(3), .name("billing_issue"): self = .billingIssue
        default: self = .unknown
        }
    }
}

extension Store {
    /// `source`: `appstore`, `playstore`, `stripe`; `manual` (granted from the dashboard or API) is
    /// `promotional`.
    init(qonversionSource source: String?) {
        switch source {
        case "appstore": self = .appStore
        case "playstore": self = .playStore
        case "stripe": self = .stripe
        case "manual": self = .promotional
        default: self = .unknown
        }
    }
}

extension GrantType {
    /// `grant_type`; the offer-code value is spelled `offer_code` by iOS and `offerCode` by Android.
    /// Absent means `unknown`, not `purchase`.
    init(qonversion grantType: String?) {
        switch grantType {
        case "purchase": self = .purchase
        case "family_sharing": self = .familySharing
        case "offer_code", "offerCode": self = .offerCode
        case "manual": self = .manual
        default: self = .unknown
        }
    }
}

extension PeriodType {
    /// `current_period_type`: the REST values `normal`, `trial`, `intro`. v1 servers send `regular`,
    /// which no published list defines, so it stays `unknown`.
    init(qonversion periodType: String?) {
        switch periodType {
        case "normal": self = .normal
        case "trial": self = .trial
        case "intro": self = .intro
        default: self = .unknown
        }
    }
}

extension TransactionType {
    /// Transaction `type`; the non-consumable value is spelled `nonconsumable_purchase` by iOS and
    /// `non_consumable_purchase` by Android.
    init(qonversion type: String?) {
        switch type {
        case "subscription_started": self = .subscriptionStarted
        case "subscription_renewed": self = .subscriptionRenewed
        case "trial_started": self = .trialStarted
        case "intro_started": self = .introStarted
        case "intro_renewed": self = .introRenewed
        case "nonconsumable_purchase", "non_consumable_purchase": self = .nonConsumablePurchase
        default: self = .unknown
        }
    }
}

extension Environment {
    /// Transaction `environment`: `production` or `sandbox`.
    init(qonversion environment: String?) {
        switch environment {
        case "production": self = .production
        case "sandbox": self = .sandbox
        default: self = .unknown
        }
    }
}

extension OwnershipType {
    /// Transaction `ownership_type`: `owner` bought it, `family_sharing` received it.
    init(qonversion ownership: String?) {
        switch ownership {
        case "owner": self = .purchased
        case "family_sharing": self = .familyShared
        default: self = .unknown
        }
    }
}
