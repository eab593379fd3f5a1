/// Why a source grants an entitlement nothing, whatever its dates say (new in schema 3).
///
/// An adapter sets ``Entitlement/denial`` exactly where its mapping makes an entitlement inactive
/// regardless of the expiration date: a refund, a family-sharing revoke, an upgrade, a store state that
/// grants nothing, an unpaid one-time purchase, a vendor's own "inactive" flag. While it is set,
/// ``Entitlement/isActive`` is `false` at every instant. Each adapter's mapping article lists the
/// denials it produces, with their ``raw`` values.
///
/// In the unified JSON form it is `{"code": "refunded", "raw": "REFUND_FULL"}`, or `null` on an
/// entitlement whose access the dates decide.
public struct Denial: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of denial.
    public var code: Code
    /// The source's own value that decided it (`REFUND_FULL`, `SUBSCRIPTION_STATE_ON_HOLD`, `0`), or `nil`
    /// when the source has none to give (an empty string is none).
    public var raw: String?

    /// Creates a denial.
    public init(_ code: Code, raw: String? = nil) {
        self.code = code
        self.raw = raw.nonEmpty
    }

    /// The kind of denial, as the unified JSON names it.
    public struct Code: OpenEnumeration {
        /// The camelCase value written in snapshots.
        public let rawValue: String

        /// Wraps a raw value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The purchase was refunded.
        public static let refunded = Code(rawValue: "refunded")
        /// Taken back without a refund: a family-sharing revoke, a chargeback, a voided purchase.
        public static let revoked = Code(rawValue: "revoked")
        /// Replaced by a higher product of its group; access continues there.
        public static let upgraded = Code(rawValue: "upgraded")
        /// A store's or payment processor's state that grants nothing (Play `SUBSCRIPTION_STATE_ON_HOLD`,
        /// Stripe `unpaid`).
        public static let storeState = Code(rawValue: "storeState")
        /// A one-time purchase that is not paid or not complete.
        public static let notPaid = Code(rawValue: "notPaid")
        /// The vendor's own activity flag says inactive (Qonversion `active: 0`, Adapty `is_active: false`)
        /// although the dates would grant access.
        public static let vendorInactive = Code(rawValue: "vendorInactive")
        /// A denial whose kind the source does not say, or one this version does not know (a schema 1 or 2
        /// document inactive before its expiry; a code a later version wrote, kept as read in
        /// ``rawValue`` and written as `unknown`).
        public static let unknown = Code(rawValue: "unknown")

        /// Every value this version defines.
        public static let knownValues: [Code] = [
            .refunded, .revoked, .upgraded, .storeState, .notPaid, .vendorInactive, .unknown,
        ]
    }

    /// `refunded (REFUND_FULL)`, `store state SUBSCRIPTION_STATE_ON_HOLD`: how the CLI and reports say it.
    public var description: String {
        let words: String
        switch code {
        case .refunded: words = "refunded"
        case .revoked: words = "revoked"
        case .upgraded: words = "upgraded"
        case .storeState: return raw.map { "store state \($0)" } ?? "store state"
        case .notPaid: words = "not paid"
        case .vendorInactive: words = "vendor says inactive"
        default: words = code.isKnown ? "denied" : "denied \(code.rawValue)"
        }
        return raw.map { "\(words) (\($0))" } ?? words
    }

    private enum CodingKeys: String, CodingKey {
        case code, raw
    }

    /// Decodes `{"code", "raw"}`; a code this version does not list keeps its spelling (see ``Code/unknown``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            Code(rawValue: try container.decode(String.self, forKey: .code)),
            raw: try container.decodeIfPresent(String.self, forKey: .raw))
    }

    /// Encodes `{"code", "raw"}` as the unified JSON form does: `raw` always present, `null` when none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.canonicalRawValue, forKey: .code)
        try container.encode(raw, forKey: .raw)
    }
}
