import EntitlementKit
import Foundation

/// Ready-made entitlements and snapshots for app tests, so a paywall test needs no JSON:
///
/// ```swift
/// let now = RFC3339.date(from: "2025-06-01T12:00:00Z") ?? .now
/// let snapshot = EntitlementBuilder.snapshot([EntitlementBuilder.inGracePeriod("premium", at: now)], at: now)
/// #expect(snapshot.isActive("premium"))
/// #expect(snapshot["premium"]?.renewState == .billingIssue)
/// ```
///
/// Every value is judged at the instant passed as `at` (the same one for a snapshot and its
/// entitlements), bought on the App Store by the customer, and dated relative to that instant as each
/// function says. Dates are whole seconds.
public enum EntitlementBuilder {
    /// A monthly subscription that renews: its current period began at `now` and ends one calendar
    /// month later.
    public static func activeMonthly(_ id: String = "premium", productId: String = "monthly", at now: Date)
        -> Entitlement
    {
        subscription(
            id, productId: productId, periodStart: now, expiration: month(after: now), renewState: .willRenew,
            at: now)
    }

    /// A yearly subscription that renews: its current period began at `now`.
    public static func activeAnnual(_ id: String = "premium", productId: String = "annual", at now: Date) -> Entitlement
    {
        subscription(
            id, productId: productId, periodStart: now, expiration: ISODuration(months: 12).added(to: now),
            renewState: .willRenew, at: now)
    }

    /// A free trial that began at `now` and lasts `length` (default seven days), then renews as paid.
    public static func trial(
        _ id: String = "premium", productId: String = "monthly",
        length: ISODuration = ISODuration(milliseconds: 604_800_000),
        at now: Date
    ) -> Entitlement {
        var entitlement = subscription(
            id, productId: productId, periodStart: now, expiration: length.added(to: now), renewState: .willRenew,
            at: now)
        entitlement.periodType = .trial
        entitlement.trialStartDate = now
        return entitlement
    }

    /// Still active, auto-renew turned off at `now`: access lasts to the period end, `daysLeft` days away.
    public static func cancelled(
        _ id: String = "premium", productId: String = "monthly", daysLeft: Int = 10, at now: Date
    ) -> Entitlement {
        var entitlement = subscription(
            id, productId: productId, periodStart: days(daysLeft - 30, from: now),
            expiration: days(daysLeft, from: now),
            renewState: .cancelled, at: now)
        entitlement.unsubscribeDetectedAt = now
        return entitlement
    }

    /// A renewal failed a day ago; access continues through the store's grace period (`graceDays`,
    /// default 16) after the period end.
    public static func inGracePeriod(
        _ id: String = "premium", productId: String = "monthly", graceDays: Int = 16, at now: Date
    ) -> Entitlement {
        let periodEnd = days(-1, from: now)
        let graceEnd = days(graceDays, from: periodEnd)
        var entitlement = subscription(
            id, productId: productId, periodStart: month(after: periodEnd, count: -1), expiration: graceEnd,
            renewState: .billingIssue, at: now)
        entitlement.billingIssueDetectedAt = periodEnd
        entitlement.gracePeriodExpirationDate = graceEnd
        return entitlement
    }

    /// A billing issue that was never fixed: the grace period ended a day ago.
    public static func billingIssueLapsed(_ id: String = "premium", productId: String = "monthly", at now: Date)
        -> Entitlement
    {
        let graceEnd = days(-1, from: now)
        var entitlement = subscription(
            id, productId: productId, periodStart: days(-47, from: now), expiration: graceEnd,
            renewState: .billingIssue, at: now)
        entitlement.billingIssueDetectedAt = days(-17, from: now)
        entitlement.gracePeriodExpirationDate = graceEnd
        return entitlement
    }

    /// Cancelled, and its last period ended `daysAgo` days ago (default 1).
    public static func expired(_ id: String = "premium", productId: String = "monthly", daysAgo: Int = 1, at now: Date)
        -> Entitlement
    {
        let end = days(-daysAgo, from: now)
        var entitlement = subscription(
            id, productId: productId, periodStart: month(after: end, count: -1), expiration: end,
            renewState: .cancelled, at: now)
        entitlement.unsubscribeDetectedAt = days(-5, from: end)
        return entitlement
    }

    /// A subscription refunded an hour ago: revoked at that instant, inactive since.
    public static func refunded(_ id: String = "premium", productId: String = "monthly", at now: Date) -> Entitlement {
        let refund = Date(millisecondsSince1970: now.millisecondsSince1970 - 3_600_000)
        var entitlement = subscription(
            id, productId: productId, periodStart: days(-10, from: now), expiration: refund, renewState: .cancelled,
            at: now)
        entitlement.refundedAt = refund
        entitlement.unsubscribeDetectedAt = refund
        return entitlement
    }

    /// Lifetime access bought a month before `now`: no expiry, non-renewable.
    public static func lifetime(_ id: String = "premium", productId: String = "lifetime", at now: Date) -> Entitlement {
        let purchased = month(after: now, count: -1)
        return Entitlement(
            id: id, productId: productId, renewState: .nonRenewable, periodType: .normal, store: .appStore,
            grantType: .purchase, ownershipType: .purchased, originalPurchaseDate: purchased,
            latestPurchaseDate: purchased,
            transactions: [transaction(productId, .nonConsumablePurchase, purchased, nil)],
            at: now)
    }

    /// A lifetime purchase refunded a day ago: it ends at the refund.
    public static func refundedLifetime(_ id: String = "premium", productId: String = "lifetime", at now: Date)
        -> Entitlement
    {
        let purchased = month(after: now, count: -1)
        let refund = days(-1, from: now)
        return Entitlement(
            id: id, productId: productId, renewState: .nonRenewable, periodType: .normal, store: .appStore,
            grantType: .purchase, ownershipType: .purchased, originalPurchaseDate: purchased,
            latestPurchaseDate: purchased, expirationDate: refund, refundedAt: refund,
            transactions: [transaction(productId, .nonConsumablePurchase, purchased, nil)], at: now)
    }

    /// A non-renewing purchase of `period` (default one month) bought at `now`.
    public static func nonRenewing(
        _ id: String = "premium", productId: String = "pass", period: ISODuration = ISODuration(months: 1), at now: Date
    ) -> Entitlement {
        Entitlement(
            id: id, productId: productId, renewState: .nonRenewable, periodType: .normal, store: .appStore,
            grantType: .purchase, ownershipType: .purchased, originalPurchaseDate: now, latestPurchaseDate: now,
            expirationDate: period.added(to: now), transactions: [transaction(productId, .unknown, now, nil)], at: now)
    }

    /// A snapshot of `entitlements` for `appUserId`, evaluated at `now` (create the entitlements with the
    /// same instant). The provider defaults to the unified form.
    public static func snapshot(
        _ entitlements: [Entitlement], appUserId: String = "test-user", provider: ProviderID = .unified, at now: Date
    ) -> EntitlementSnapshot {
        EntitlementSnapshot(
            provider: provider, appUserId: appUserId, originalAppUserId: appUserId, requestDate: now, evaluatedAt: now,
            entitlements: entitlements)
    }

    // MARK: Parts

    private static func subscription(
        _ id: String, productId: String, periodStart: Date, expiration: Date, renewState: RenewState, at now: Date
    ) -> Entitlement {
        Entitlement(
            id: id, productId: productId, renewState: renewState, periodType: .normal, store: .appStore,
            grantType: .purchase, ownershipType: .purchased, originalPurchaseDate: periodStart,
            latestPurchaseDate: periodStart, expirationDate: expiration,
            transactions: [transaction(productId, .subscriptionStarted, periodStart, expiration)], at: now)
    }

    private static func transaction(_ productId: String, _ type: TransactionType, _ date: Date, _ expiration: Date?)
        -> Transaction
    {
        Transaction(
            productId: productId, type: type, transactionDate: date, expirationDate: expiration,
            environment: .production, ownershipType: .purchased, store: .appStore)
    }

    private static func days(_ count: Int, from date: Date) -> Date {
        Date(millisecondsSince1970: date.millisecondsSince1970 + Int64(count) * CivilCalendar.millisecondsPerDay)
    }

    private static func month(after date: Date, count: Int = 1) -> Date {
        ISODuration(months: count).added(to: date)
    }
}
