/// What a transaction did.
public struct TransactionType: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A paid subscription began.
    public static let subscriptionStarted = TransactionType(rawValue: "subscriptionStarted")

    /// A subscription renewed.
    public static let subscriptionRenewed = TransactionType(rawValue: "subscriptionRenewed")

    /// A free trial began.
    public static let trialStarted = TransactionType(rawValue: "trialStarted")

    /// An introductory-price period began.
    public static let introStarted = TransactionType(rawValue: "introStarted")

    /// An introductory-price period renewed.
    public static let introRenewed = TransactionType(rawValue: "introRenewed")

    /// A one-time, permanent purchase.
    public static let nonConsumablePurchase = TransactionType(rawValue: "nonConsumablePurchase")

    /// A consumable purchase.
    public static let consumablePurchase = TransactionType(rawValue: "consumablePurchase")

    /// The backend did not say, or said something unrecognised.
    public static let unknown = TransactionType(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [TransactionType] = [
        .subscriptionStarted, .subscriptionRenewed, .trialStarted, .introStarted, .introRenewed, .nonConsumablePurchase,
        .consumablePurchase, .unknown,
    ]
}
