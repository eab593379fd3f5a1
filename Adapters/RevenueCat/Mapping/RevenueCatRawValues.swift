import EntitlementKit

// RevenueCat's raw enum strings and what they mean in the unified model. A value not listed here is
// not an error: it becomes `.unknown` (and the store's raw string is kept as `storeRaw`).

extension Store {
    /// RevenueCat's `store` values, read by the adapter and written by the simulated backend. A list, not a
    /// dictionary: finding one of a dozen short names by comparing is cheaper than hashing it, once per entitlement.
    package static let revenueCatNames: KeyValuePairs<String, Store> = [
        "app_store": .appStore, "mac_app_store": .macAppStore, "play_store": .playStore, "amazon": .amazon,
        "stripe": .stripe, "promotional": .promotional, "rc_billing": .rcBilling, "paddle": .paddle,
        "external": .external, "test_store": .testStore, "galaxy": .galaxy,
    ]

    /// The unified store for RevenueCat's `store` value; absent, non-string or unlisted → `.unknown`.
    init(revenueCat raw: LenientRawValue) {
        guard let text = raw.text else {
            self = .unknown
            return
        }
        self = Self.revenueCatNames.first { $0.key == text }?.value ?? .unknown
    }

    /// RevenueCat's `store` value for this store, or `nil` for one RevenueCat does not name.
    package var revenueCatName: String? {
        Self.revenueCatNames.first { $0.value == self }?.key
    }
}

extension PeriodType {
    /// The unified period for a subscription's `period_type`.
    ///
    /// Absent or `null` → `.normal`, the value RevenueCat itself assumes when nothing is said (its SDK
    /// defaults a missing period to normal, and a one-time purchase has no period at all). A present but
    /// unrecognised value (`"NORMAL"`, `3`) → `.unknown`, where the SDK says normal: a period type we
    /// cannot read could be a trial, so we do not claim it is a paid period.
    init(revenueCat raw: LenientRawValue) {
        switch raw {
        case .absent: self = .normal
        case .text("normal"): self = .normal
        case .text("trial"): self = .trial
        case .text("intro"): self = .intro
        case .text("prepaid"): self = .prepaid
        case .text, .unreadable: self = .unknown
        }
    }
}

extension OwnershipType {
    /// The unified ownership for a subscription's `ownership_type`: absent or `null` → `.purchased`
    /// (as RevenueCat's iOS SDK), `PURCHASED` / `FAMILY_SHARED`, anything else → `.unknown`.
    init(revenueCat raw: LenientRawValue) {
        switch raw {
        case .absent: self = .purchased
        case .text("PURCHASED"): self = .purchased
        case .text("FAMILY_SHARED"): self = .familyShared
        case .text, .unreadable: self = .unknown
        }
    }
}

extension GrantType {
    /// How the customer came to hold an entitlement: a `promotional` store is a manual grant, a
    /// family-shared purchase is family sharing, anything else a purchase.
    init(revenueCatStore store: Store, ownership: OwnershipType) {
        if store == .promotional {
            self = .manual
        } else if ownership == .familyShared {
            self = .familySharing
        } else {
            self = .purchase
        }
    }
}

extension Environment {
    /// `is_sandbox` as an environment.
    init(revenueCatSandbox isSandbox: Bool) {
        self = isSandbox ? .sandbox : .production
    }
}
