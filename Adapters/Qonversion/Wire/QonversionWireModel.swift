import EntitlementKit
import Foundation

// What the wire readers extract from any of Qonversion's three shapes, before mapping. Values stay as
// the vendor spelled them (raw strings, integer or string renew states); the mapping decides what they
// mean. Dates are already dates because each shape has its own unit (seconds on v1/v3, ISO on v4).

/// One Qonversion response, read but not yet mapped.
struct QonversionWireDocument: Sendable, Hashable {
    /// v1 `data.uid`.
    var userId: String?
    /// v1 `data.timestamp`.
    var serverTime: Date?
    /// v1 `data.apple_extra.original_application_version`.
    var originalApplicationVersion: String?
    /// The entitlements in wire order.
    var entitlements: [QonversionWireEntitlement]
}

/// One entitlement element (`data.permissions[i]` on v1, `data[i]` on the REST lists).
struct QonversionWireEntitlement: Sendable, Hashable {
    var id: String
    /// The id as read, to name the element when it clashes with another (its path is made only then).
    var idNode: JSONNode
    /// The server's activity flag (`active` or `is_active`).
    var activeFlag: QonversionActiveFlag
    var productId: String?
    var renewState: QonversionRenewStateCode?
    var source: String?
    var currentPeriodType: String?
    var grantType: String?
    var startedDate: Date?
    var expirationDate: Date?
    var trialStartDate: Date?
    var firstPurchaseDate: Date?
    var lastPurchaseDate: Date?
    var autoRenewDisableDate: Date?
    var renewsCount: Int?
    var lastActivatedOfferCode: String?
    /// `store_transactions` in wire order (v1 only).
    var transactions: [QonversionWireTransaction] = []
}

/// The server's activity flag as sent: `0`/`1` on v1, a JSON boolean on the REST APIs.
struct QonversionActiveFlag: Sendable, Hashable {
    /// Whether it says active.
    var isActive: Bool
    /// Its JSON text (`0`, `1`, `false`, `true`): the raw value of the denial an inactive flag makes.
    var spelling: String

    static let zero = QonversionActiveFlag(isActive: false, spelling: "0")
    static let one = QonversionActiveFlag(isActive: true, spelling: "1")

    init(isActive: Bool, spelling: String) {
        self.isActive = isActive
        self.spelling = spelling
    }

    init(boolean: Bool) {
        self.init(isActive: boolean, spelling: boolean ? "true" : "false")
    }
}

/// One element of v1 `store_transactions`.
struct QonversionWireTransaction: Sendable, Hashable {
    var transactionId: String?
    var originalTransactionId: String?
    var offerCode: String?
    var transactionDate: Date?
    var expirationDate: Date?
    var revokeDate: Date?
    var environment: String?
    var ownershipType: String?
    var type: String?
}

/// `renew_state` as sent: an integer code on v1, a string on the REST APIs (and sometimes on v1).
enum QonversionRenewStateCode: Sendable, Hashable {
    case code(Int64)
    case name(String)
}
