/// How the customer came to hold an entitlement.
public struct GrantType: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// They bought it.
    public static let purchase = GrantType(rawValue: "purchase")

    /// A family member's purchase is shared with them.
    public static let familySharing = GrantType(rawValue: "familySharing")

    /// An offer code was redeemed.
    public static let offerCode = GrantType(rawValue: "offerCode")

    /// Granted by hand or by the backend (promotional).
    public static let manual = GrantType(rawValue: "manual")

    /// The backend did not say, or said something unrecognised.
    public static let unknown = GrantType(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [GrantType] = [.purchase, .familySharing, .offerCode, .manual, .unknown]
}
