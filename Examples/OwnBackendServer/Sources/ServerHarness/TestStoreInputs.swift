import EntitlementKit
import EntitlementKitTesting
import Foundation

/// The app the tests' and the bench's server serves: its bundle id, package name and catalog.
public enum TestApp {
    public static let bundleId = "com.example.ownbackend"
    public static let packageName = "com.example.ownbackend"
    public static let productId = "premium_monthly"
    public static let stripePrice = "price_premium"
    public static let catalogJSON =
        #"{"products": {"premium_monthly": {"entitlements": ["premium"]}, "price_premium": {"entitlements": ["premium"]}}}"#
    public static let webhookSecret = "whsec_test_own_backend"
}

/// App Store Server Notifications V2 signed with the test kit's throwaway chain (`AppStoreTestSigner`),
/// for a subscription of ``TestApp/productId``.
public struct AppStoreNotifications: Sendable {
    /// The test kit's signer (its root verifies what it signs).
    public let signer: AppStoreTestSigner

    /// Notifications signed by the test kit's chain.
    public init() throws { signer = try AppStoreTestSigner() }

    /// One period of the subscription `original`: transaction `transaction` from `start` to `expires`,
    /// signed at `signedAt`; refunded at `revokedAt` when given. `accountToken`: the app's `appAccountToken`.
    /// `withRenewalInfo`: whether `data` carries the renewal info (Apple's does; a load that does not
    /// test renewal states saves one signature check per notification without it).
    public func body(
        type: String, uuid: String, original: String, transaction: String, accountToken: String?, start: Date,
        expires: Date, signedAt: Date, revokedAt: Date? = nil, withRenewalInfo: Bool = true
    ) -> String {
        var info: [String: JSONValue] = [
            "transactionId": .string(transaction), "originalTransactionId": .string(original),
            "bundleId": .string(TestApp.bundleId), "productId": .string(TestApp.productId),
            "purchaseDate": Self.milliseconds(start), "originalPurchaseDate": Self.milliseconds(start),
            "expiresDate": Self.milliseconds(expires), "quantity": .integer(1),
            "type": .string("Auto-Renewable Subscription"), "inAppOwnershipType": .string("PURCHASED"),
            "signedDate": Self.milliseconds(signedAt), "environment": .string("Production"),
            "transactionReason": .string(type == "SUBSCRIBED" ? "PURCHASE" : "RENEWAL"), "storefront": .string("USA"),
        ]
        if let accountToken { info["appAccountToken"] = .string(accountToken) }
        if let revokedAt {
            info["revocationDate"] = Self.milliseconds(revokedAt)
            info["revocationReason"] = .integer(0)
        }
        let renewal: [String: JSONValue] = [
            "originalTransactionId": .string(original), "productId": .string(TestApp.productId),
            "autoRenewProductId": .string(TestApp.productId), "autoRenewStatus": .integer(revokedAt == nil ? 1 : 0),
            "signedDate": Self.milliseconds(signedAt), "environment": .string("Production"),
            "recentSubscriptionStartDate": Self.milliseconds(start),
        ]
        var data: [String: JSONValue] = [
            "bundleId": .string(TestApp.bundleId), "environment": .string("Production"),
            "signedTransactionInfo": .string(signer.sign(.object(info))), "status": .integer(revokedAt == nil ? 1 : 5),
        ]
        if withRenewalInfo { data["signedRenewalInfo"] = .string(signer.sign(.object(renewal))) }
        let payload = JSONValue.object([
            "notificationType": .string(type), "notificationUUID": .string(uuid), "version": .string("2.0"),
            "signedDate": Self.milliseconds(signedAt),
            "data": .object(data),
        ])
        return JSONValue.object(["signedPayload": .string(signer.sign(payload))]).compactText
    }

    public static func milliseconds(_ date: Date) -> JSONValue {
        .integer(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}
