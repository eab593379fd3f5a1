/// Where a purchase was made. The vendor's own spelling is kept beside it as `storeRaw`.
public struct Store: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Apple App Store (iOS, iPadOS, tvOS, visionOS).
    public static let appStore = Store(rawValue: "appStore")

    /// Apple Mac App Store.
    public static let macAppStore = Store(rawValue: "macAppStore")

    /// Google Play.
    public static let playStore = Store(rawValue: "playStore")

    /// Amazon Appstore.
    public static let amazon = Store(rawValue: "amazon")

    /// Stripe (web).
    public static let stripe = Store(rawValue: "stripe")

    /// Granted by the backend itself (a promotional or manual grant), not bought in a store.
    public static let promotional = Store(rawValue: "promotional")

    /// RevenueCat Billing (web).
    public static let rcBilling = Store(rawValue: "rcBilling")

    /// Paddle (web).
    public static let paddle = Store(rawValue: "paddle")

    /// A store the backend records as external.
    public static let external = Store(rawValue: "external")

    /// A backend's own test store.
    public static let testStore = Store(rawValue: "testStore")

    /// Samsung Galaxy Store.
    public static let galaxy = Store(rawValue: "galaxy")

    /// A store the backend did not name, or one this version does not know.
    public static let unknown = Store(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [Store] = [
        .appStore, .macAppStore, .playStore, .amazon, .stripe, .promotional, .rcBilling, .paddle, .external, .testStore,
        .galaxy, .unknown,
    ]
}
