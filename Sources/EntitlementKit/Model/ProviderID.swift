/// Names a backend, or the unified form itself: the `provider` of every snapshot and the value of `--from`.
///
/// An open set, like the model's enumerations: a struct over its lowercase raw value, so an adapter for
/// a backend this version does not know can name itself without an API change. The built-in values are
/// the only place their spellings live.
public struct ProviderID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The provider id as written in snapshots: `revenuecat`, `qonversion`, `unified`.
    public let rawValue: String

    /// Wraps a provider id exactly as given. Use ``init(named:)`` for user input.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Reads a provider name typed by a person (`RevenueCat`, `QONVERSION`): provider ids are lowercase,
    /// so the name is lowercased.
    public init(named name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// RevenueCat (REST v1 subscriber JSON, the SDKs' CustomerInfo).
    public static let revenueCat = ProviderID(rawValue: "revenuecat")
    /// Qonversion (v1 launch result, v3/v4 REST entitlements).
    public static let qonversion = ProviderID(rawValue: "qonversion")
    /// Adapty (SDK backend profile, server API v1 and v2, the cross-platform bridge).
    public static let adapty = ProviderID(rawValue: "adapty")
    /// The App Store read directly: StoreKit 2 JWS and the App Store Server API (`EntitlementKitAppStore`).
    public static let appStore = ProviderID(rawValue: "appstore")
    /// Google Play read directly: the Play Developer API's purchases (`EntitlementKitGooglePlay`).
    public static let googlePlay = ProviderID(rawValue: "googleplay")
    /// Stripe read directly: subscriptions, Checkout Sessions and webhook events (`EntitlementKitStripe`).
    public static let stripe = ProviderID(rawValue: "stripe")
    /// EntitlementKit's own unified snapshot JSON.
    public static let unified = ProviderID(rawValue: "unified")

    /// The backends this version ships adapters for.
    public static let backends: [ProviderID] = [.revenueCat, .qonversion, .adapty]

    /// The raw value.
    public var description: String { rawValue }

    /// Orders by raw value, so lists of providers print in a stable order.
    public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Decodes the raw value from a single string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw value as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
