/// A live provider's own configuration, built on a ``LiveProviderConfiguration``: the base URL and the
/// HTTP options are the shared ones, and a debug description is the (redacted) description.
public protocol VendorProviderConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The key, base URL and HTTP options every live provider has.
    var live: LiveProviderConfiguration { get set }
}

extension VendorProviderConfiguration {
    /// Where requests go.
    public var baseURL: BackendBaseURL { live.baseURL }

    /// Timeout, retries, size cap.
    public var connection: HTTPConnectionOptions {
        get { live.connection }
        set { live.connection = newValue }
    }

    /// Same as `description`, which never shows the key.
    public var debugDescription: String { description }
}
