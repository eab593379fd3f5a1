/// Whether the customer owns the purchase or has it through Family Sharing.
public struct OwnershipType: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer made the purchase.
    public static let purchased = OwnershipType(rawValue: "purchased")

    /// Shared with the customer through Family Sharing.
    public static let familyShared = OwnershipType(rawValue: "familyShared")

    /// The backend did not say, or said something unrecognised.
    public static let unknown = OwnershipType(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [OwnershipType] = [.purchased, .familyShared, .unknown]
}
