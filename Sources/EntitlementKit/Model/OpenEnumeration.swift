/// A string-backed enumeration that can grow without breaking code that switches over it.
///
/// The unified enums (``Store``, ``RenewState``, …) are structs over their camelCase raw value rather
/// than closed `enum`s, so later versions can add values without an API break, and a value made from any
/// string never traps. The unified JSON carries only the values the schema lists: adapters map vendor
/// values they do not recognise to `.unknown` (a vendor's own spelling survives where the schema keeps it,
/// as ``Entitlement/storeRaw``), a snapshot reader reads an unlisted value as `.unknown`, and a value
/// outside ``knownValues`` is written as `"unknown"` (``canonicalRawValue``).
///
/// They are deliberately not `ExpressibleByStringLiteral`: `store == "app_store"` would compile and always
/// be false (the vendor spelling is not the unified value). Compare with the named values (`.appStore`), or
/// wrap a string explicitly with `init(rawValue:)`.
public protocol OpenEnumeration: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible
where RawValue == String {
    /// Wraps any raw value, known or not.
    init(rawValue: String)
    /// The values this version of EntitlementKit defines, `unknown` included.
    static var knownValues: [Self] { get }
    /// The value for "not said, or not recognised".
    static var unknown: Self { get }
}

extension OpenEnumeration {
    /// The raw value.
    public var description: String { rawValue }

    /// Whether this value is one of ``knownValues``.
    public var isKnown: Bool {
        let known = Self.knownValues
        // The writer asks this of every enumeration it writes, nearly always of a listed value made from its
        // constant: comparing only the listed values of the same UTF-8 length finds it without `String`'s
        // Unicode-aware comparison of every value listed before it. Without such a match, the full check decides
        // (a string can equal one of another length).
        let length = rawValue.utf8.count
        for index in known.indices where known[index].rawValue.utf8.count == length && known[index] == self {
            return true
        }
        return known.contains(self)
    }

    /// The raw value when it is one of ``knownValues``, otherwise `"unknown"`: what the unified JSON holds.
    public var canonicalRawValue: String { isKnown ? rawValue : Self.unknown.rawValue }

    /// The value named by a unified-JSON string: a listed value, or `.unknown` for anything else.
    public init(canonicalRawValue: String) {
        let value = Self(rawValue: canonicalRawValue)
        self = value.isKnown ? value : Self.unknown
    }
}

extension OpenEnumeration {
    /// Decodes a unified-JSON string: a listed value, or `.unknown` for anything else.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(canonicalRawValue: try container.decode(String.self))
    }

    /// Encodes ``canonicalRawValue``, as the unified JSON form does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonicalRawValue)
    }
}
