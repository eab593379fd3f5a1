/// One field of one entitlement on which two snapshots disagree.
public struct FieldDifference: Sendable, Hashable, CustomStringConvertible {
    /// The entitlement identifier (`premium`).
    public var entitlementId: String
    /// The field that differs.
    public var field: ComparedField
    /// The value in snapshot A, in its unified JSON form (`"willRenew"`, `"2025-07-01T00:00:00Z"`, `null`).
    public var a: JSONValue
    /// The value in snapshot B, in its unified JSON form.
    public var b: JSONValue

    /// Creates a field difference.
    public init(entitlementId: String, field: ComparedField, a: JSONValue, b: JSONValue) {
        self.entitlementId = entitlementId
        self.field = field
        self.a = a
        self.b = b
    }

    /// `premium: expirationDate A "2025-07-01T00:00:00Z", B null`: both values in their unified JSON form.
    public var description: String {
        "\(entitlementId): \(field.name) A \(a.compactText), B \(b.compactText)"
    }

    /// `{"entitlementId", "field", "a", "b"}`.
    public var jsonValue: JSONValue {
        .object([
            "entitlementId": .string(entitlementId),
            "field": .string(field.name),
            "a": a,
            "b": b,
        ])
    }
}
