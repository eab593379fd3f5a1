/// A string-backed enumeration that keeps values nobody knows yet.
///
/// The unified enums (``Store``, ``RenewState``, …) are structs over their camelCase raw value rather
/// than closed `enum`s, so a snapshot written by a newer EntitlementKit — or a vendor value an adapter
/// chose to pass through — decodes, compares and re-encodes without loss. Adapters map vendor values they
/// do not recognise to `.unknown`; ``isKnown`` tells the listed values from the rest.
public protocol OpenEnumeration: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
where RawValue == String {
    /// Wraps any raw value, known or not.
    init(rawValue: String)
    /// The values this version of EntitlementKit defines, `unknown` included.
    static var knownValues: [Self] { get }
}

extension OpenEnumeration {
    /// Wraps a string literal as a raw value.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The raw value.
    public var description: String { rawValue }

    /// Whether this value is one of ``knownValues``.
    public var isKnown: Bool { Self.knownValues.contains(self) }
}
