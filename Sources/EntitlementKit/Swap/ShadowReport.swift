import Foundation

/// One comparison (or one skipped or failed one) made by a ``MigratingProvider``.
///
/// Its ``description`` starts with the outcome's name and, for a disagreement, lists the differences with
/// the backends' names — `disagreed: premium active on revenuecat, inactive on qonversion` — so it can be
/// logged as it is. It names no app user id (read ``appUserId`` when the log may hold one) and never an
/// API key.
public struct ShadowReport: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the comparison.
    public enum Outcome: Sendable, Hashable {
        /// Both backends answered and agree on access and on every compared field.
        case agreed
        /// Both answered and differ; access differences come first, as ``SnapshotDiff`` gives them.
        case disagreed(SnapshotDiff)
        /// The shadow backend failed; the served answer was not affected.
        case shadowFailed(EntitlementClientError)
        /// The shadow backend did not answer within the shadow timeout after the serving one did.
        case shadowTimedOut
        /// The shadow backend was not asked.
        case skipped(SkipReason)
        /// A write (log-in, restore or sync, purchase) reached the serving backend but failed on the shadow.
        case writeFailed(WriteAction, EntitlementClientError)
    }

    /// Why a comparison was not made.
    public enum SkipReason: String, Sendable, Hashable {
        /// The customer is anonymous: two backends cannot know the same anonymous person.
        case anonymous
    }

    /// The writes a ``MigratingProvider`` sends to both backends.
    public enum WriteAction: String, Sendable, Hashable {
        /// `logIn(from:to:)`.
        case logIn
        /// `syncPurchases(_:for:)`: a restore or a sync.
        case syncPurchases
        /// `reportPurchase(_:for:)`.
        case reportPurchase
    }

    /// The customer compared.
    public let appUserId: String
    /// When the comparison was made (the provider's wall clock).
    public let instant: Date
    /// The backend whose answer the app got.
    public let servingProvider: ProviderID
    /// The backend asked in the shadow.
    public let shadowProvider: ProviderID
    /// What happened.
    public let outcome: Outcome

    /// Creates a report.
    public init(
        appUserId: String, instant: Date, servingProvider: ProviderID, shadowProvider: ProviderID, outcome: Outcome
    ) {
        self.appUserId = appUserId
        self.instant = instant
        self.servingProvider = servingProvider
        self.shadowProvider = shadowProvider
        self.outcome = outcome
    }

    /// `agreed`, `disagreed: premium active on revenuecat, inactive on qonversion; pro.expirationDate …`,
    /// `shadowFailed: qonversion: offline: …`, `shadowTimedOut: qonversion`, `skipped: anonymous`,
    /// `writeFailed: logIn on qonversion: offline: …`.
    public var description: String {
        switch outcome {
        case .agreed:
            return "agreed"
        case .disagreed(let diff):
            let lines = ShadowDifferenceText.lines(diff, a: servingProvider, b: shadowProvider)
            return "disagreed: " + lines.joined(separator: "; ")
        case .shadowFailed(let error):
            return "shadowFailed: \(shadowProvider): \(error)"
        case .shadowTimedOut:
            return "shadowTimedOut: \(shadowProvider)"
        case .skipped(let reason):
            return "skipped: \(reason.rawValue)"
        case .writeFailed(let action, let error):
            return "writeFailed: \(action.rawValue) on \(shadowProvider): \(error)"
        }
    }
}

/// Differences in words that name the backends, shared by reports and `entitlements fetch --shadow`.
public enum ShadowDifferenceText {
    /// `premium active on revenuecat, inactive on qonversion` per access difference, then
    /// `pro.expirationDate "2025-07-01T00:00:00Z" on revenuecat, "2025-06-01T00:00:00Z" on qonversion`
    /// per field difference.
    public static func lines(_ diff: SnapshotDiff, a: ProviderID, b: ProviderID) -> [String] {
        accessLines(diff, a: a, b: b) + fieldLines(diff, a: a, b: b)
    }

    /// One line per access difference.
    public static func accessLines(_ diff: SnapshotDiff, a: ProviderID, b: ProviderID) -> [String] {
        diff.accessDifferences.map { difference in
            "\(difference.entitlementId) \(difference.activeInA ? "active" : "inactive") on \(a), "
                + "\(difference.activeInB ? "active" : "inactive") on \(b)"
        }
    }

    /// One line per field difference.
    public static func fieldLines(_ diff: SnapshotDiff, a: ProviderID, b: ProviderID) -> [String] {
        diff.fieldDifferences.map { difference in
            "\(difference.entitlementId).\(difference.field.name) \(difference.a.compactText) on \(a), "
                + "\(difference.b.compactText) on \(b)"
        }
    }
}
