import Foundation

/// A field that ``SnapshotDiff`` compares, named as in the unified JSON form.
///
/// The compared fields are the ones that mean the same thing on every backend and that a customer or a
/// support engineer would notice: whether it renews, when access ends, where and what was bought, and
/// how it was obtained. Fields that record history the backends keep differently (purchase dates,
/// transactions, renewal counts, the vendor's raw store string) are not compared, and neither is
/// `willRenew`, which is `renewState == willRenew` and would only repeat a `renewState` difference.
///
/// A value one backend does not state — an enum that is `unknown`, an identifier that is `null` — does
/// not disagree with anything, so it is not compared: a Qonversion v1 response has no period type, and
/// that is not a difference from RevenueCat's `normal`. `expirationDate` is the exception: `null` states
/// "never expires" and differs from any date.
public struct ComparedField: Sendable, Hashable, CustomStringConvertible {
    /// The field's key in the unified JSON form, as written in reports (`renewState`).
    public let name: String
    private let kind: Kind

    private enum Kind: Sendable, Hashable {
        case present, renewState, expirationDate, store, productId, productPlanId, periodType, isSandbox, grantType,
            ownershipType, cancellationReason
    }

    private init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// A field of the unified form, named by its one spelling there.
    private init(_ key: UnifiedSchemaKey, _ kind: Kind) {
        self.init(key.text, kind)
    }

    /// The field's name.
    public var description: String { name }

    /// Pseudo-field for an entitlement that only one snapshot lists, while inactive there (`a`/`b` are
    /// `true` where it is listed). An entitlement listed on one side only *and active* there is an
    /// ``AccessDifference`` instead.
    public static let present = ComparedField("present", .present)
    /// ``Entitlement/renewState``.
    public static let renewState = ComparedField(.renewState, .renewState)
    /// ``Entitlement/expirationDate``, equal when both are `nil` or within the expiry tolerance.
    public static let expirationDate = ComparedField(.expirationDate, .expirationDate)
    /// ``Entitlement/store`` (not the vendor's raw spelling, which always differs between backends).
    public static let store = ComparedField(.store, .store)
    /// ``Entitlement/productId``.
    public static let productId = ComparedField(.productId, .productId)
    /// ``Entitlement/productPlanId``.
    public static let productPlanId = ComparedField(.productPlanId, .productPlanId)
    /// ``Entitlement/periodType``.
    public static let periodType = ComparedField(.periodType, .periodType)
    /// ``Entitlement/isSandbox``.
    public static let isSandbox = ComparedField(.isSandbox, .isSandbox)
    /// ``Entitlement/grantType``.
    public static let grantType = ComparedField(.grantType, .grantType)
    /// ``Entitlement/ownershipType``.
    public static let ownershipType = ComparedField(.ownershipType, .ownershipType)
    /// ``Entitlement/cancellationReason`` (schema 2), compared only when both sides state a known reason:
    /// RevenueCat and Qonversion never say, and `null` disagrees with nothing.
    public static let cancellationReason = ComparedField(.cancellationReason, .cancellationReason)

    /// Every compared field, in the order differences are reported for one entitlement.
    public static let all: [ComparedField] = [
        .present, .renewState, .expirationDate, .store, .productId, .productPlanId, .periodType, .isSandbox,
        .grantType, .ownershipType, .cancellationReason,
    ]

    /// The field called `name` (`"renewState"`), or `nil` when no compared field has that name.
    public init?(name: String) {
        guard let field = Self.all.first(where: { $0.name == name }) else { return nil }
        self = field
    }

    /// Reads a field name typed by a person (`renewstate`, `ExpirationDate`): names are matched ignoring
    /// case, since no two compared fields differ only in case.
    public init?(named name: String) {
        let lowercased = name.lowercased()
        guard let field = Self.all.first(where: { $0.name.lowercased() == lowercased }) else { return nil }
        self = field
    }

    /// The two values when `a` and `b` disagree on this field, `nil` when they agree or one side does
    /// not state a value. ``present`` is decided by ``SnapshotDiff`` and never differs here.
    func difference(_ a: Entitlement, _ b: Entitlement, expiryTolerance: TimeInterval) -> (JSONValue, JSONValue)? {
        switch kind {
        case .present:
            return nil
        case .renewState:
            return Self.stated(a.renewState, b.renewState)
        case .expirationDate:
            switch (a.expirationDate, b.expirationDate) {
            case (nil, nil):
                return nil
            case (let dateA?, let dateB?)
            where abs(dateA.millisecondsSince1970 - dateB.millisecondsSince1970) <= Self.milliseconds(expiryTolerance):
                return nil
            default:
                return (Self.json(a.expirationDate), Self.json(b.expirationDate))
            }
        case .store:
            return Self.stated(a.store, b.store)
        case .productId:
            return Self.stated(a.productId, b.productId)
        case .productPlanId:
            return Self.stated(a.productPlanId, b.productPlanId)
        case .periodType:
            return Self.stated(a.periodType, b.periodType)
        case .isSandbox:
            return a.isSandbox == b.isSandbox ? nil : (.bool(a.isSandbox), .bool(b.isSandbox))
        case .grantType:
            return Self.stated(a.grantType, b.grantType)
        case .ownershipType:
            return Self.stated(a.ownershipType, b.ownershipType)
        case .cancellationReason:
            guard let reasonA = a.cancellationReason, let reasonB = b.cancellationReason else { return nil }
            return Self.stated(reasonA, reasonB)
        }
    }

    /// Both values as the unified JSON writes them, when both sides state one and they differ; a value
    /// outside the schema is written, and so compared, as `unknown`.
    private static func stated<Value: OpenEnumeration>(_ a: Value, _ b: Value) -> (JSONValue, JSONValue)? {
        let (a, b) = (a.canonicalRawValue, b.canonicalRawValue)
        guard a != b, a != Value.unknown.rawValue, b != Value.unknown.rawValue else { return nil }
        return (.string(a), .string(b))
    }

    private static func stated(_ a: String?, _ b: String?) -> (JSONValue, JSONValue)? {
        guard let a, let b, a != b else { return nil }
        return (.string(a), .string(b))
    }

    private static func json(_ date: Date?) -> JSONValue {
        date.map { .string(RFC3339.string(from: $0)) } ?? .null
    }

    private static func milliseconds(_ tolerance: TimeInterval) -> Int64 {
        guard tolerance.isFinite, tolerance > 0 else { return 0 }
        return Int64(min(tolerance * 1000, 9.0e15).rounded(.down))
    }
}
