import EntitlementKit
import Foundation

/// What a step expects. `nil` means "not compared".
public struct ScenarioExpectations: Sendable, Hashable {
    /// The set of active entitlement ids.
    public var active: Set<String>?
    /// Renew state per entitlement id.
    public var renewState: [String: RenewState]?
    /// Expiration date per entitlement id (`.some(nil)`: no expiry).
    public var expirationDate: [String: Date?]?
    /// The error code reported with the answer; `.some(nil)`: none.
    public var error: EntitlementClientError.Code??
    /// Where the answer came from.
    public var source: String?
    /// The device's current app user id after the step.
    public var appUserId: AppUserIdReference?
    /// Whether the device's current id is anonymous.
    public var isAnonymous: Bool?
    /// logIn's `created`.
    public var created: Bool?
    /// The ids that resolve to the looked-up customer.
    public var aliases: [AppUserIdReference]?
    /// How many snapshots the device's update stream has yielded since its last configure.
    public var updates: Int?

    /// No expectations.
    public init() {}

    /// Whether nothing is expected.
    public var isEmpty: Bool { self == ScenarioExpectations() }
}
