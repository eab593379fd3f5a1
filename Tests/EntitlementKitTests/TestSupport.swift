import EntitlementKit
import Foundation
import TestSupport

/// The snapshot described by `Golden/canonical-snapshot.json`, built field by field.
func goldenSnapshot() -> EntitlementSnapshot {
    let evaluatedAt = instant("2025-06-01T12:00:00.250Z")
    let pro = Entitlement(
        id: "pro", productId: "pro_monthly", productPlanId: "monthly", renewState: .willRenew, periodType: .normal,
        store: .playStore, storeRaw: "play_store", grantType: .purchase, ownershipType: .purchased,
        originalPurchaseDate: instant("2025-01-01T00:00:00Z"), latestPurchaseDate: instant("2025-06-01T00:00:00Z"),
        expirationDate: instant("2025-07-01T00:00:00Z"), renewsCount: 5,
        transactions: [
            Transaction(
                transactionId: "GPA.1234-5678-9012-34567..5", originalTransactionId: "GPA.1234-5678-9012-34567",
                productId: "pro_monthly", type: .subscriptionRenewed, transactionDate: instant("2025-06-01T00:00:00Z"),
                expirationDate: instant("2025-07-01T00:00:00Z"), environment: .production, ownershipType: .purchased,
                store: .playStore)
        ],
        at: evaluatedAt)
    let lifetime = Entitlement(
        id: "lifetime", productId: "lifetime_unlock", renewState: .nonRenewable, periodType: .normal, store: .unknown,
        storeRaw: "tienda \"nueva\"/é", isSandbox: true, grantType: .familySharing, ownershipType: .familyShared,
        latestPurchaseDate: instant("2024-03-03T03:03:03.300Z"),
        cancellationReason: .unknown, cancellationReasonRaw: "store_closed",
        at: evaluatedAt)
    let trial = Entitlement(
        id: "trial", productId: "pro_yearly", renewState: .cancelled, periodType: .trial, store: .appStore,
        storeRaw: "app_store",
        grantType: .offerCode, ownershipType: .purchased, firstPurchaseDate: instant("2025-05-01T00:00:00Z"),
        trialStartDate: instant("2025-05-01T00:00:00Z"), expirationDate: instant("2025-05-08T00:00:00Z"),
        gracePeriodExpirationDate: instant("2025-05-24T00:00:00Z"),
        unsubscribeDetectedAt: instant("2025-05-02T10:00:00Z"),
        billingIssueDetectedAt: instant("2025-05-08T00:00:00Z"), refundedAt: instant("2025-05-09T00:00:00Z"),
        cancellationReason: .refunded, cancellationReasonRaw: "REFUND_FULL",
        lastActivatedOfferCode: "SPRING25", at: evaluatedAt)
    return EntitlementSnapshot(
        provider: ProviderID(rawValue: "example"), appUserId: "user-42",
        originalAppUserId: "$RCAnonymousID:0123456789abcdef0123456789abcdef",
        requestDate: instant("2025-06-01T12:00:00Z"), evaluatedAt: evaluatedAt, verification: .verified,
        firstSeen: instant("2024-01-15T08:30:00Z"),
        managementURL: URL(string: "https://apps.apple.com/account/subscriptions"), originalApplicationVersion: "1.0",
        originalPurchaseDate: instant("2024-01-15T08:29:59.007Z"), entitlements: [pro, lifetime, trial],
        nonSubscriptionTransactions: [
            Transaction(
                transactionId: "2000000123456789", originalTransactionId: "2000000123456789", productId: "coins_100",
                type: .consumablePurchase, transactionDate: instant("2025-02-02T02:02:02Z"), environment: .sandbox,
                ownershipType: .purchased, offerCode: "WELCOME", store: .appStore)
        ])
}

func goldenFileURL(_ name: String, file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Golden").appendingPathComponent(name)
}
