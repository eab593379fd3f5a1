import EntitlementKit
import Foundation

/// `fetch --shadow`: one read through ``MigratingProvider``, as an app in shadow mode makes it, turned into
/// what the command prints — the snapshot the app would get, one line per difference or problem, and
/// whether access differs.
struct ShadowFetch: Sendable {
    /// What the read came to.
    struct Outcome: Sendable {
        /// The snapshot the app would get, or the served backend's failure.
        var snapshot: Result<EntitlementSnapshot, CommandFailure>
        /// For standard error: `access: …` and `field: …` per difference, or what kept the two from
        /// being compared.
        var lines: [String]
        /// Whether some entitlement is active on one backend only.
        var accessDiffers: Bool
    }

    var served: any EntitlementProvider
    var shadow: any EntitlementProvider
    var policy: MigratingProvider.Policy
    var comparison: SnapshotDiff.Options
    /// `--at`: both answers are evaluated there before they are compared; `nil` compares them as answered.
    var instant: Date?

    func run(_ appUserId: String) async -> Outcome {
        let servedSide = ObservedProvider(served, evaluatedAt: instant)
        let shadowSide = ObservedProvider(shadow, evaluatedAt: instant)
        let migrating = MigratingProvider(
            serving: servedSide, shadow: shadowSide, policy: policy, comparison: comparison)
        let reports = migrating.reports
        let snapshot: Result<EntitlementSnapshot, EntitlementClientError>
        do {
            snapshot = .success(try await migrating.snapshot(for: appUserId))
        } catch {
            snapshot = .failure(error)
        }
        // A read that was compared, skipped or missed the shadow left exactly one report; one whose
        // served backend failed left none.
        let tally = await migrating.tally
        var report: ShadowReport?
        if tally.comparisons + tally.failures + tally.skipped > 0 {
            var iterator = reports.makeAsyncIterator()
            report = await iterator.next()
        }
        var lines = report.map { Self.lines(for: $0, timeout: migrating.shadowTimeout) } ?? []
        if case .success = snapshot, let error = servedSide.lastError {
            // Only under `--serve either`: the shadow answered for the served backend.
            lines.append("served: \(served.provider): \(error) (answered by \(shadow.provider))")
        }
        var accessDiffers = false
        if case .disagreed(let diff)? = report?.outcome { accessDiffers = diff.hasAccessDifferences }
        return Outcome(
            snapshot: snapshot.mapError(LiveFetch.failure), lines: lines, accessDiffers: accessDiffers)
    }

    /// `access: premium active on revenuecat (until 2025-07-05T08:00:00Z), inactive on qonversion
    /// (expired 2025-06-05T08:00:00Z)`: each side's verdict with its reason.
    static func accessLines(_ diff: SnapshotDiff, a: ProviderID, b: ProviderID) -> [String] {
        diff.accessDifferences.map { difference in
            "access: \(difference.entitlementId) \(verdict(difference.activeInA, difference.reasonInA, on: a)), "
                + verdict(difference.activeInB, difference.reasonInB, on: b)
        }
    }

    private static func verdict(_ isActive: Bool, _ reason: AccessReason?, on provider: ProviderID) -> String {
        (isActive ? "active" : "inactive") + " on \(provider) (\(AccessDifference.words(reason)))"
    }

    private static func lines(for report: ShadowReport, timeout: Duration) -> [String] {
        let (a, b) = (report.servingProvider, report.shadowProvider)
        switch report.outcome {
        case .agreed, .writeFailed:
            return []
        case .disagreed(let diff):
            return accessLines(diff, a: a, b: b)
                + ShadowDifferenceText.fieldLines(diff, a: a, b: b).map { "field: " + $0 }
        case .shadowFailed(let error):
            return ["shadow: \(b): \(error)"]
        case .shadowTimedOut:
            return ["shadow: \(b): no answer within \(timeout.components.seconds) s of \(a)'s; not compared"]
        case .skipped:
            return ["shadow: \(b): not asked: an anonymous customer cannot be compared"]
        }
    }
}

/// A live provider as ``ShadowFetch`` hands it to ``MigratingProvider``: its snapshots evaluated at
/// `--at` (so the comparison is made at the instant printed), its last error kept for the report line.
private struct ObservedProvider: EntitlementProvider {
    private final class ErrorBox: @unchecked Sendable {
        private let lock = NSLock()
        private var error: EntitlementClientError?
        var value: EntitlementClientError? {
            get { lock.withLock { error } }
            set { lock.withLock { error = newValue } }
        }
    }

    private let base: any EntitlementProvider
    private let instant: Date?
    private let errors = ErrorBox()

    init(_ base: any EntitlementProvider, evaluatedAt instant: Date?) {
        self.base = base
        self.instant = instant
    }

    /// The error of the last read that failed.
    var lastError: EntitlementClientError? { errors.value }

    var provider: ProviderID { base.provider }

    func makeAnonymousAppUserId() -> String { base.makeAnonymousAppUserId() }

    func isAnonymous(_ appUserId: String) -> Bool { base.isAnonymous(appUserId) }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        do {
            let snapshot = try await base.snapshot(for: appUserId)
            return instant.map { snapshot.evaluated(at: $0) } ?? snapshot
        } catch {
            errors.value = error
            throw error
        }
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try await base.logIn(from: currentAppUserId, to: newAppUserId)
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await base.syncPurchases(receipt, for: appUserId)
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await base.reportPurchase(purchase, for: appUserId)
    }
}
