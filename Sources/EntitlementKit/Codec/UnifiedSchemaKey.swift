/// A member name of the unified form (unified-snapshot.md): every name is spelled here once, for its one
/// writer and its strict reader.
///
/// The writer (``CanonicalJSONEncoder``) copies ``name``'s bytes with the quotes and colon around them, and
/// the reader (``EntitlementSnapshot/init(json:)-(JSONNode)``) looks members up by ``text``, so the two cannot
/// disagree on a key. A name shared by two objects (`expirationDate` of an entitlement and of a transaction)
/// is one key.
struct UnifiedSchemaKey: Sendable {
    /// The name's bytes: plain ASCII that needs no escaping, a constant the writer copies without a lookup.
    let name: StaticString

    private init(_ name: StaticString) {
        self.name = name
    }

    /// The name as a string, for looking the member up.
    var text: String { name.description }

    // The snapshot.
    static let activeEntitlementIds = UnifiedSchemaKey("activeEntitlementIds")
    static let aliases = UnifiedSchemaKey("aliases")
    static let appUserId = UnifiedSchemaKey("appUserId")
    static let entitlements = UnifiedSchemaKey("entitlements")
    static let evaluatedAt = UnifiedSchemaKey("evaluatedAt")
    static let firstSeen = UnifiedSchemaKey("firstSeen")
    static let managementUrl = UnifiedSchemaKey("managementUrl")
    static let nonSubscriptionTransactions = UnifiedSchemaKey("nonSubscriptionTransactions")
    static let originalAppUserId = UnifiedSchemaKey("originalAppUserId")
    static let originalApplicationVersion = UnifiedSchemaKey("originalApplicationVersion")
    static let originalPurchaseDate = UnifiedSchemaKey("originalPurchaseDate")
    static let provider = UnifiedSchemaKey("provider")
    static let requestDate = UnifiedSchemaKey("requestDate")
    static let schemaVersion = UnifiedSchemaKey("schemaVersion")
    static let verification = UnifiedSchemaKey("verification")

    // An entitlement (with `originalPurchaseDate` above).
    static let billingIssueDetectedAt = UnifiedSchemaKey("billingIssueDetectedAt")
    static let cancellationReason = UnifiedSchemaKey("cancellationReason")
    static let cancellationReasonRaw = UnifiedSchemaKey("cancellationReasonRaw")
    static let denial = UnifiedSchemaKey("denial")
    static let expirationDate = UnifiedSchemaKey("expirationDate")
    static let firstPurchaseDate = UnifiedSchemaKey("firstPurchaseDate")
    static let gracePeriodExpirationDate = UnifiedSchemaKey("gracePeriodExpirationDate")
    static let grantType = UnifiedSchemaKey("grantType")
    static let id = UnifiedSchemaKey("id")
    static let isActive = UnifiedSchemaKey("isActive")
    static let isSandbox = UnifiedSchemaKey("isSandbox")
    static let lastActivatedOfferCode = UnifiedSchemaKey("lastActivatedOfferCode")
    static let latestPurchaseDate = UnifiedSchemaKey("latestPurchaseDate")
    static let ownershipType = UnifiedSchemaKey("ownershipType")
    static let periodType = UnifiedSchemaKey("periodType")
    static let productId = UnifiedSchemaKey("productId")
    static let productPlanId = UnifiedSchemaKey("productPlanId")
    static let refundedAt = UnifiedSchemaKey("refundedAt")
    static let renewState = UnifiedSchemaKey("renewState")
    static let renewsCount = UnifiedSchemaKey("renewsCount")
    static let store = UnifiedSchemaKey("store")
    static let storeRaw = UnifiedSchemaKey("storeRaw")
    static let transactions = UnifiedSchemaKey("transactions")
    static let trialStartDate = UnifiedSchemaKey("trialStartDate")
    static let unsubscribeDetectedAt = UnifiedSchemaKey("unsubscribeDetectedAt")
    static let willRenew = UnifiedSchemaKey("willRenew")

    // A denial.
    static let code = UnifiedSchemaKey("code")
    static let raw = UnifiedSchemaKey("raw")

    // A transaction (with `expirationDate`, `ownershipType`, `productId` and `store` above).
    static let environment = UnifiedSchemaKey("environment")
    static let offerCode = UnifiedSchemaKey("offerCode")
    static let originalTransactionId = UnifiedSchemaKey("originalTransactionId")
    static let revocationDate = UnifiedSchemaKey("revocationDate")
    static let transactionDate = UnifiedSchemaKey("transactionDate")
    static let transactionId = UnifiedSchemaKey("transactionId")
    static let type = UnifiedSchemaKey("type")
}
