import EntitlementKit

// Apple's values → the unified enumerations. Every value this version does not know maps to `.unknown`
// (never an error), as Apple's own library keeps unknown enum values without failing.

extension PeriodType {
    /// `offerDiscountType` `FREE_TRIAL` → trial; otherwise `offerType` 1 → intro, 2 (promotional),
    /// 3 (offer code), 4 (win-back) → promotional; no offer → normal; another offer type → unknown.
    init(appStore transaction: AppStoreTransaction) {
        if transaction.offerDiscountType == "FREE_TRIAL" {
            self = .trial
            return
        }
        switch transaction.offerType {
        case nil: self = .normal
        case 1: self = .intro
        case 2, 3, 4: self = .promotional
        default: self = .unknown
        }
    }
}

extension OwnershipType {
    /// `PURCHASED` → purchased, `FAMILY_SHARED` → familyShared; absent → purchased (Apple sends it on
    /// every transaction; without it nobody shared anything); another value → unknown.
    init(appStore raw: String?) {
        switch raw {
        case nil, "PURCHASED": self = .purchased
        case "FAMILY_SHARED": self = .familyShared
        default: self = .unknown
        }
    }
}

extension GrantType {
    /// Family Sharing first (a family member redeemed nothing), then an offer code (`offerType` 3), else
    /// a purchase.
    init(appStore transaction: AppStoreTransaction) {
        if transaction.inAppOwnershipType == "FAMILY_SHARED" {
            self = .familySharing
        } else if transaction.offerType == 3 {
            self = .offerCode
        } else {
            self = .purchase
        }
    }
}

extension Environment {
    /// `Production` → production; `Sandbox` and the test environments (`Xcode`, `LocalTesting`, read only
    /// when allowed) → sandbox; absent or another value → unknown.
    init(appStore raw: String?) {
        switch raw {
        case "Production": self = .production
        case "Sandbox", "Xcode", "LocalTesting": self = .sandbox
        default: self = .unknown
        }
    }
}

extension TransactionType {
    /// From `type`, `transactionReason` and the offer: a consumable, a non-consumable; a non-renewing
    /// subscription → subscriptionStarted; an auto-renewable one → trialStarted (a free trial),
    /// introStarted / introRenewed (`offerType` 1), else subscriptionStarted / subscriptionRenewed, by
    /// `transactionReason` `PURCHASE` / `RENEWAL` (absent: a renewal when its id is not the original's).
    /// An unknown `type` or `transactionReason` → unknown.
    init(appStore transaction: AppStoreTransaction) {
        switch transaction.type {
        case .consumable: self = .consumablePurchase
        case .nonConsumable: self = .nonConsumablePurchase
        case .nonRenewing: self = .subscriptionStarted
        case .unknown: self = .unknown
        case .autoRenewable:
            let isRenewal: Bool
            switch transaction.transactionReason {
            case "PURCHASE": isRenewal = false
            case "RENEWAL": isRenewal = true
            case nil: isRenewal = transaction.transactionId != transaction.originalTransactionId
            default:
                self = .unknown
                return
            }
            if transaction.offerDiscountType == "FREE_TRIAL" {
                self = .trialStarted
            } else if transaction.offerType == 1 {
                self = isRenewal ? .introRenewed : .introStarted
            } else {
                self = isRenewal ? .subscriptionRenewed : .subscriptionStarted
            }
        }
    }
}
