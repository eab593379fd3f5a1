import EntitlementKit
import Foundation

/// A product a store sells in a scenario.
public struct ScenarioProduct: Sendable, Hashable {
    /// What kind of product it is.
    public enum Kind: Sendable, Hashable {
        /// A subscription that renews every `period` while auto-renew is on and billing works; `trial`
        /// first when the receipt never held the product; access lasts `gracePeriod` past a failed renewal.
        case autoRenewable(period: ISODuration, trial: ISODuration?, gracePeriod: ISODuration?)
        /// Access for one `period`, credited to the buyer (never on a receipt).
        case nonRenewing(period: ISODuration)
        /// Lifetime access, on the store account's receipt.
        case nonConsumable
        /// Grants nothing; credited to the buyer.
        case consumable

        /// The scenario file's name for it.
        public var name: String {
            switch self {
            case .autoRenewable: "autoRenewable"
            case .nonRenewing: "nonRenewing"
            case .nonConsumable: "nonConsumable"
            case .consumable: "consumable"
            }
        }

        /// Whether a purchase of it sits on the store account's receipt.
        public var isOnReceipt: Bool {
            switch self {
            case .autoRenewable, .nonConsumable: true
            case .nonRenewing, .consumable: false
            }
        }
    }

    /// The product id.
    public var id: String
    /// Its kind.
    public var kind: Kind
    /// The entitlements it unlocks (none for a consumable).
    public var entitlements: [String]

    /// Describes a product.
    public init(id: String, kind: Kind, entitlements: [String] = []) {
        self.id = id
        self.kind = kind
        self.entitlements = entitlements
    }
}
