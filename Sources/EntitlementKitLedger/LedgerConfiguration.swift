import EntitlementKit
import Foundation

/// How a ledger judges its inputs and customers.
public struct LedgerConfiguration: Sendable {
    /// The environments whose inputs are accepted; production only by default, so a sandbox purchase
    /// never grants production access. An input that names no environment (an RTDN) is never filtered.
    public var environments: Set<Environment>
    /// What posting a purchase another identified customer owns does.
    public var restoreBehavior: RestoreBehavior
    /// Whether an app user id is anonymous (by default RevenueCat's form, `$RCAnonymousID:` and 32
    /// lower-case hex digits, so a team leaving RevenueCat keeps its customers' anonymous ids).
    public var isAnonymousAppUserId: @Sendable (String) -> Bool
    /// How long seen notification ids are kept; never less than 30 days (Apple retries for about 6.5 days,
    /// Stripe for 3, Pub/Sub for 7).
    public var seenNotificationRetention: TimeInterval {
        get { retention }
        set { retention = max(newValue, Self.minimumSeenNotificationRetention) }
    }
    private var retention: TimeInterval

    /// 30 days.
    public static let minimumSeenNotificationRetention: TimeInterval = 30 * 86_400

    /// A configuration; every parameter has the documented default.
    public init(
        environments: Set<Environment> = [.production], restoreBehavior: RestoreBehavior = .transferToNewAppUserId,
        isAnonymousAppUserId: @escaping @Sendable (String) -> Bool = LedgerConfiguration.isRevenueCatAnonymousId,
        seenNotificationRetention: TimeInterval = LedgerConfiguration.minimumSeenNotificationRetention
    ) {
        self.environments = environments
        self.restoreBehavior = restoreBehavior
        self.isAnonymousAppUserId = isAnonymousAppUserId
        self.retention = max(seenNotificationRetention, Self.minimumSeenNotificationRetention)
    }

    /// Whether `appUserId` is `$RCAnonymousID:` followed by exactly 32 lower-case hex digits.
    @Sendable public static func isRevenueCatAnonymousId(_ appUserId: String) -> Bool {
        let prefix = "$RCAnonymousID:"
        guard appUserId.hasPrefix(prefix) else { return false }
        let digits = appUserId.utf8.dropFirst(prefix.utf8.count)
        return digits.count == 32 && digits.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A new anonymous id of RevenueCat's form.
    public static func newRevenueCatAnonymousId() -> String {
        "$RCAnonymousID:" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
