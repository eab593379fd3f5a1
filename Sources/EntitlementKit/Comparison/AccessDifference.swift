/// An entitlement that grants access in one snapshot and not in the other.
///
/// An entitlement a snapshot does not list counts as inactive there, so "active in A, missing from B"
/// is an access difference too.
public struct AccessDifference: Sendable, Hashable, CustomStringConvertible {
    /// The entitlement identifier (`premium`).
    public var entitlementId: String
    /// Whether snapshot A grants it.
    public var activeInA: Bool
    /// Whether snapshot B grants it.
    public var activeInB: Bool

    /// Creates an access difference.
    public init(entitlementId: String, activeInA: Bool, activeInB: Bool) {
        self.entitlementId = entitlementId
        self.activeInA = activeInA
        self.activeInB = activeInB
    }

    /// `premium: active in A, not in B`.
    public var description: String {
        "\(entitlementId): " + (activeInA ? "active in A, not in B" : "active in B, not in A")
    }

    /// `{"entitlementId", "activeInA", "activeInB"}`.
    public var jsonValue: JSONValue {
        .object([
            "entitlementId": .string(entitlementId),
            "activeInA": .bool(activeInA),
            "activeInB": .bool(activeInB),
        ])
    }
}
