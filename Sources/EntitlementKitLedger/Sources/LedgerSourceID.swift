import EntitlementKit

/// The name of a source of ledger inputs: `appStore`, `googlePlay`, `stripe`, or another a server adds.
///
/// It names the source in inputs (the replay log's `"source"`), in thread ids and in notification ids, so
/// two sources never share a thread or a seen notification id.
public struct LedgerSourceID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The name as written in logs.
    public let rawValue: String

    /// The source named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// App Store Server Notifications V2 and the App Store's documents.
    public static let appStore = LedgerSourceID(rawValue: "appStore")
    /// Google Play real-time developer notifications and the Play Developer API's documents.
    public static let googlePlay = LedgerSourceID(rawValue: "googlePlay")
    /// Stripe webhooks and Stripe's objects.
    public static let stripe = LedgerSourceID(rawValue: "stripe")

    public var description: String { rawValue }

    /// By the bytes of the name.
    public static func < (lhs: LedgerSourceID, rhs: LedgerSourceID) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension ProviderID {
    /// `ledger`: a snapshot an ``EntitlementLedger`` answered, merged over its sources.
    public static let ledger = ProviderID(rawValue: "ledger")
}
