import EntitlementKit
import Foundation

// The parts of Apple's signed payloads the mapping reads, already type-checked: one transaction
// (`JWSTransactionDecodedPayload`), one subscription's renewal info (`JWSRenewalInfoDecodedPayload`) and
// what Get All Subscription Statuses says about one subscription. Every other key is ignored, as Apple's
// own library ignores keys it does not model.

/// `type`: what kind of product a transaction bought.
enum AppStoreProductType: Sendable, Hashable {
    /// `Auto-Renewable Subscription`.
    case autoRenewable
    /// `Non-Renewing Subscription`: the app decides its length (the catalog's duration).
    case nonRenewing
    /// `Non-Consumable`: bought once, kept.
    case nonConsumable
    /// `Consumable`: used up; never an entitlement.
    case consumable
    /// Absent, or a value this version does not know: grants nothing.
    case unknown

    init(raw: String?) {
        switch raw {
        case "Auto-Renewable Subscription": self = .autoRenewable
        case "Non-Renewing Subscription": self = .nonRenewing
        case "Non-Consumable": self = .nonConsumable
        case "Consumable": self = .consumable
        default: self = .unknown
        }
    }

    /// Whether a transaction of this type can unlock an entitlement.
    var canGrant: Bool {
        switch self {
        case .autoRenewable, .nonRenewing, .nonConsumable: true
        case .consumable, .unknown: false
        }
    }
}

/// One transaction payload.
struct AppStoreTransaction: Sendable, Hashable {
    /// Where the item was read (the JWS string, or the decoded object): errors and ties name it.
    var path: JSONPath
    /// The item's place among every item of the document, in reading order: the last tie-breaker.
    var order: Int
    /// Whether this item was a JWS whose signature and chain were checked.
    var isVerified: Bool

    /// `transactionId`.
    var transactionId: String?
    /// `originalTransactionId`: the subscription chain (shared across up- and downgrades in a group).
    var originalTransactionId: String?
    /// `bundleId`.
    var bundleId: String?
    /// `productId`.
    var productId: String?
    /// `type`.
    var type: AppStoreProductType
    /// `purchaseDate`: the purchase, renewal or restore.
    var purchaseDate: Date?
    /// `originalPurchaseDate`.
    var originalPurchaseDate: Date?
    /// `expiresDate` (auto-renewable subscriptions only).
    var expiresDate: Date?
    /// `appAccountToken`: the app's own account id, set at purchase.
    var appAccountToken: String?
    /// `inAppOwnershipType` as sent: `PURCHASED`, `FAMILY_SHARED`.
    var inAppOwnershipType: String?
    /// `signedDate`: Apple's clock when it signed the item.
    var signedDate: Date?
    /// `revocationDate`: a refund or a Family Sharing revocation (Apple sends only past ones).
    var revocationDate: Date?
    /// `revocationReason`: `0` refunded for another reason, `1` refunded for an issue in the app.
    var revocationReason: Int64?
    /// `revocationType`: `REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`.
    var revocationType: String?
    /// `isUpgraded`: replaced at once by a higher product of the same group.
    var isUpgraded: Bool
    /// `offerType`: `1` introductory, `2` promotional, `3` offer code, `4` win-back.
    var offerType: Int64?
    /// `offerIdentifier`: the offer code's reference name or the promotional offer's id.
    var offerIdentifier: String?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
    var offerDiscountType: String?
    /// `environment`: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    var environment: String?
    /// `transactionReason`: `PURCHASE`, `RENEWAL`.
    var transactionReason: String?
}

/// One renewal-info payload: the *next* period of one subscription chain.
struct AppStoreRenewalInfo: Sendable, Hashable {
    /// Where it was read.
    var path: JSONPath
    /// Whether it was a verified JWS.
    var isVerified: Bool
    /// `originalTransactionId`.
    var originalTransactionId: String?
    /// `autoRenewStatus`: `0` off, `1` on.
    var autoRenewStatus: Int64?
    /// `expirationIntent`: `1` customer cancelled, `2` billing error, `3` price increase not consented,
    /// `4` product unavailable, `5` other.
    var expirationIntent: Int64?
    /// `isInBillingRetryPeriod`.
    var isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`: the end of the Billing Grace Period, while in it.
    var gracePeriodExpiresDate: Date?
    /// `signedDate`.
    var signedDate: Date?
}

/// One `lastTransactions[]` element of Get All Subscription Statuses: the chain's state as Apple saw it.
struct AppStoreSubscriptionState: Sendable, Hashable {
    /// Where it was read.
    var path: JSONPath
    /// `status`: `1` active, `2` expired, `3` billing retry, `4` billing grace period, `5` revoked.
    var status: Int64?
    /// `signedRenewalInfo`, when given.
    var renewalInfo: AppStoreRenewalInfo?
    /// The `signedDate` of the item's transaction: which of two answers about one chain is newer.
    var signedDate: Date?
}

/// Everything a document said, in reading order.
struct AppStoreDocument: Sendable, Hashable {
    /// Every transaction item (duplicates included; the mapping counts a `transactionId` once).
    var transactions: [AppStoreTransaction] = []
    /// What the statuses said about each subscription chain, by `originalTransactionId`.
    var states: [String: AppStoreSubscriptionState] = [:]
    /// Every renewal-info item, for the document's clock and its verification.
    var renewalInfos: [AppStoreRenewalInfo] = []

    /// `verified` when at least one item was read and every item was a verified JWS.
    var verification: SnapshotVerification {
        let items = transactions.map(\.isVerified) + renewalInfos.map(\.isVerified)
        return !items.isEmpty && items.allSatisfy { $0 } ? .verified : .notRequested
    }

    /// The newest `signedDate` of any item.
    var newestSignedDate: Date? {
        (transactions.compactMap(\.signedDate) + renewalInfos.compactMap(\.signedDate)).max()
    }
}
