/// The store environment a transaction happened in.
public struct Environment: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A real purchase.
    public static let production = Environment(rawValue: "production")

    /// A test purchase in a sandbox environment.
    public static let sandbox = Environment(rawValue: "sandbox")

    /// The backend did not say, or said something unrecognised.
    public static let unknown = Environment(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [Environment] = [.production, .sandbox, .unknown]
}
