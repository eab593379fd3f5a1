/// An app user id as a scenario writes it: a literal id, or `"@label"` naming an id a step produced.
public enum AppUserIdReference: Sendable, Hashable, CustomStringConvertible {
    /// The id itself.
    case literal(String)
    /// The id a `configure` or `logOut` labelled.
    case label(String)

    /// `"@label"` or the literal.
    public var description: String {
        switch self {
        case .literal(let id): id
        case .label(let label): "@" + label
        }
    }
}
