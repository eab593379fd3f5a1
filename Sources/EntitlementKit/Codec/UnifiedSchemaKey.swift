/// A member name of the unified form (unified-snapshot.md): every name is spelled here once, for its one
/// writer and its strict reader.
///
/// The writer (``CanonicalJSONEncoder``) copies ``name``'s bytes with the quotes and colon around them, and
/// the reader (``EntitlementSnapshot/init(json:)-(JSONNode)``) looks members up by ``text``, so the two cannot
/// disagree on a key. A name shared by two objects (`expirationDate` of an entitlement and of a transaction)
/// is one key.
///
/// Computed literals rather than stored constants: a key costs the writer what a literal does (no lazy global).
struct UnifiedSchemaKey: Sendable {
    /// The name's bytes: plain ASCII that needs no escaping, a constant the writer copies without a lookup.
    let name: StaticString

    private init(_ name: StaticString) {
        self.name = name
    }

    /// The name as a string, for looking the member up.
    var text: String { name.description }

    // The snapshot.
    static var activeEntitlementIds: UnifiedSchemaKey { UnifiedSchemaKey("activeEntitlementIds") }
    static var aliases: UnifiedSchemaKey { UnifiedSchemaKey("aliases") }
    static var appUserId: UnifiedSchemaKey { UnifiedSchemaKey("appUserId") }
    static var entitlements: UnifiedSchemaKey { UnifiedSchemaKey("entitlements") }
    static var evaluatedAt: UnifiedSchemaKey { UnifiedSchemaKey("evaluatedAt") }
    static var firstSeen: UnifiedSchemaKey { UnifiedSchemaKey("firstSeen") }
    static var managementUrl: UnifiedSchemaKey { UnifiedSchemaKey("managementUrl") }
    static var nonSubscriptionTransactions: UnifiedSchemaKey { UnifiedSchemaKey("nonSubscriptionTransactions") }
    static var originalAppUserId: UnifiedSchemaKey { UnifiedSchemaKey("originalAppUserId") }
    static var originalApplicationVersion: UnifiedSchemaKey { UnifiedSchemaKey("originalApplicationVersion") }
    static var originalPurchaseDate: UnifiedSchemaKey { UnifiedSchemaKey("originalPurchaseDate") }
    static var provider: UnifiedSchemaKey { UnifiedSchemaKey("provider") }
    static var requestDate: UnifiedSchemaKey { UnifiedSchemaKey("requestDate") }
    static var schemaVersion: UnifiedSchemaKey { UnifiedSchemaKey("schemaVersion") }
    static var verification: UnifiedSchemaKey { UnifiedSchemaKey("verification") }

    // An entitlement (with `originalPurchaseDate` above).
    static var billingIssueDetectedAt: UnifiedSchemaKey { UnifiedSchemaKey("billingIssueDetectedAt") }
    static var cancellationReason: UnifiedSchemaKey { UnifiedSchemaKey("cancellationReason") }
    static var cancellationReasonRaw: UnifiedSchemaKey { UnifiedSchemaKey("cancellationReasonRaw") }
    static var denial: UnifiedSchemaKey { UnifiedSchemaKey("denial") }
    static var expirationDate: UnifiedSchemaKey { UnifiedSchemaKey("expirationDate") }
    static var firstPurchaseDate: UnifiedSchemaKey { UnifiedSchemaKey("firstPurchaseDate") }
    static var gracePeriodExpirationDate: UnifiedSchemaKey { UnifiedSchemaKey("gracePeriodExpirationDate") }
    static var grantType: UnifiedSchemaKey { UnifiedSchemaKey("grantType") }
    static var id: UnifiedSchemaKey { UnifiedSchemaKey("id") }
    static var isActive: UnifiedSchemaKey { UnifiedSchemaKey("isActive") }
    static var isSandbox: UnifiedSchemaKey { UnifiedSchemaKey("isSandbox") }
    static var lastActivatedOfferCode: UnifiedSchemaKey { UnifiedSchemaKey("lastActivatedOfferCode") }
    static var latestPurchaseDate: UnifiedSchemaKey { UnifiedSchemaKey("latestPurchaseDate") }
    static var ownershipType: UnifiedSchemaKey { UnifiedSchemaKey("ownershipType") }
    static var periodType: UnifiedSchemaKey { UnifiedSchemaKey("periodType") }
    static var productId: UnifiedSchemaKey { UnifiedSchemaKey("productId") }
    static var productPlanId: UnifiedSchemaKey { UnifiedSchemaKey("productPlanId") }
    static var refundedAt: UnifiedSchemaKey { UnifiedSchemaKey("refundedAt") }
    static var renewState: UnifiedSchemaKey { UnifiedSchemaKey("renewState") }
    static var renewsCount: UnifiedSchemaKey { UnifiedSchemaKey("renewsCount") }
    static var store: UnifiedSchemaKey { UnifiedSchemaKey("store") }
    static var storeRaw: UnifiedSchemaKey { UnifiedSchemaKey("storeRaw") }
    static var transactions: UnifiedSchemaKey { UnifiedSchemaKey("transactions") }
    static var trialStartDate: UnifiedSchemaKey { UnifiedSchemaKey("trialStartDate") }
    static var unsubscribeDetectedAt: UnifiedSchemaKey { UnifiedSchemaKey("unsubscribeDetectedAt") }
    static var willRenew: UnifiedSchemaKey { UnifiedSchemaKey("willRenew") }

    // A denial.
    static var code: UnifiedSchemaKey { UnifiedSchemaKey("code") }
    static var raw: UnifiedSchemaKey { UnifiedSchemaKey("raw") }

    // A transaction (with `expirationDate`, `ownershipType`, `productId` and `store` above).
    static var environment: UnifiedSchemaKey { UnifiedSchemaKey("environment") }
    static var offerCode: UnifiedSchemaKey { UnifiedSchemaKey("offerCode") }
    static var originalTransactionId: UnifiedSchemaKey { UnifiedSchemaKey("originalTransactionId") }
    static var revocationDate: UnifiedSchemaKey { UnifiedSchemaKey("revocationDate") }
    static var transactionDate: UnifiedSchemaKey { UnifiedSchemaKey("transactionDate") }
    static var transactionId: UnifiedSchemaKey { UnifiedSchemaKey("transactionId") }
    static var type: UnifiedSchemaKey { UnifiedSchemaKey("type") }
}
