import EntitlementKit
import Foundation

/// Small App Store documents built in code, for rules that need a configuration or a shape the fixtures
/// do not show. Dates are milliseconds since 1970, as Apple sends them.
enum TestDocuments {
    /// 2025-06-15T12:00:00Z, when every document here is judged.
    static let instant = Date(millisecondsSince1970: 1_749_988_800_000)
    /// 2025-06-01T00:00:00Z.
    static let june1: Int64 = 1_748_736_000_000
    /// 2025-07-01T00:00:00Z.
    static let july1: Int64 = 1_751_328_000_000
    /// 2025-06-15T11:00:00Z.
    static let signed: Int64 = 1_749_985_200_000

    /// A decoded auto-renewable transaction, active at ``instant``, with `members` replacing or adding keys.
    static func transaction(_ members: [String: JSONValue] = [:]) -> JSONValue {
        var object: [String: JSONValue] = [
            "transactionId": .string("2000000001"), "originalTransactionId": .string("2000000001"),
            "bundleId": .string("com.acme.trails"), "productId": .string("com.acme.trails.pro.monthly"),
            "type": .string("Auto-Renewable Subscription"), "purchaseDate": .integer(june1),
            "originalPurchaseDate": .integer(june1), "expiresDate": .integer(july1),
            "inAppOwnershipType": .string("PURCHASED"), "environment": .string("Production"),
            "transactionReason": .string("PURCHASE"), "signedDate": .integer(signed),
        ]
        for (key, value) in members { object[key] = value }
        return .object(object)
    }

    /// `value` as JSON bytes.
    static func data(_ value: JSONValue) -> Data {
        Data(value.compactText.utf8)
    }
}
