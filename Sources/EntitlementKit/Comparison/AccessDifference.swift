/// An entitlement that grants access in one snapshot and not in the other, and why on each side.
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
    /// Why A grants it or not (``Entitlement/accessReason``); `nil` when A does not list it (or the
    /// difference was recorded without reasons, as reports written before schema 3 were).
    public var reasonInA: AccessReason?
    /// Why B grants it or not; `nil` when B does not list it.
    public var reasonInB: AccessReason?

    /// Creates an access difference.
    public init(
        entitlementId: String, activeInA: Bool, activeInB: Bool, reasonInA: AccessReason? = nil,
        reasonInB: AccessReason? = nil
    ) {
        self.entitlementId = entitlementId
        self.activeInA = activeInA
        self.activeInB = activeInB
        self.reasonInA = reasonInA
        self.reasonInB = reasonInB
    }

    /// The difference between how `a` and `b` judge one entitlement (`nil` where a side does not list it),
    /// with both sides' reasons; `nil` when both grant it or both do not.
    public init?(entitlementId: String, _ a: Entitlement?, _ b: Entitlement?) {
        let activeInA = a?.isActive ?? false
        let activeInB = b?.isActive ?? false
        guard activeInA != activeInB else { return nil }
        self.init(
            entitlementId: entitlementId, activeInA: activeInA, activeInB: activeInB, reasonInA: a?.accessReason,
            reasonInB: b?.accessReason)
    }

    /// `premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: refunded (REFUND_FULL))`; a side
    /// that does not list the entitlement says `not listed`.
    public var description: String {
        let head = "\(entitlementId): " + (activeInA ? "active in A, not in B" : "active in B, not in A")
        guard reasonInA != nil || reasonInB != nil else { return head }
        return head + " (A: \(Self.words(reasonInA)); B: \(Self.words(reasonInB)))"
    }

    /// `{"entitlementId", "activeInA", "activeInB", "reasonInA", "reasonInB"}`: each reason in
    /// ``AccessReason/jsonValue``'s form, `null` on a side that does not list the entitlement.
    public var jsonValue: JSONValue {
        .object(jsonMembers)
    }

    /// The members of ``jsonValue``, for reports that add their own (`parity --json` adds `appUserId`).
    public var jsonMembers: [String: JSONValue] {
        [
            "entitlementId": .string(entitlementId),
            "activeInA": .bool(activeInA),
            "activeInB": .bool(activeInB),
            "reasonInA": reasonInA?.jsonValue ?? .null,
            "reasonInB": reasonInB?.jsonValue ?? .null,
        ]
    }

    /// A side's reason in words, `not listed` without one.
    public static func words(_ reason: AccessReason?) -> String {
        reason?.description ?? "not listed"
    }
}
