import EntitlementKit
import EntitlementKitGooglePlay
import Foundation

private typealias Field = GooglePlayField

/// Google Play's side of a simulated store for a server of the app's own: buying on Play, and what the
/// Play Developer API answers for each purchase token (`purchases.subscriptionsv2` for a subscription,
/// `purchases.products` for a one-time product) at true time.
extension SimulatedStore {
    /// The store account buys `productId` at Google Play now; the purchase token of what was bought, or
    /// `nil` when the store does not sell it.
    public func buyOnPlay(_ productId: String, storeAccount: String) -> String? {
        guard let reference = buy(productId: productId, storeAccount: storeAccount, store: .playStore),
            let purchase = purchase(at: reference)
        else { return nil }
        return Self.playToken(purchase)
    }

    /// Each Google Play purchase of the account — on the receipt (subscriptions and non-consumables) or,
    /// with `including` a token, that one too — with the Developer API's document for it now.
    public func playPurchases(of storeAccount: String, including token: String? = nil) -> [(
        token: String, document: Data
    )] {
        let instant = trueTime
        return settledPurchases(of: storeAccount).compactMap { purchase in
            let purchaseToken = Self.playToken(purchase)
            guard purchase.store == .playStore, purchase.kind.isOnReceipt || purchaseToken == token else {
                return nil
            }
            return (
                purchaseToken, Data(Self.playDocument(purchase, token: purchaseToken, at: instant).compactText.utf8)
            )
        }
    }

    private static func playToken(_ purchase: SimulatedPurchase) -> String {
        "play-token-" + purchase.transactionId
    }

    private static func playDocument(_ purchase: SimulatedPurchase, token: String, at instant: Date) -> JSONValue {
        guard case .autoRenewable = purchase.kind else {
            return .object([
                Field.kind: .string("androidpublisher#productPurchase"), Field.productId: .string(purchase.productId),
                Field.purchaseToken: .string(token),
                Field.purchaseTimeMillis: .string(String(purchase.purchasedAt.millisecondsSince1970)),
                Field.purchaseState: .integer(purchase.refundedAt == nil ? 0 : 1), Field.consumptionState: .integer(0),
                Field.acknowledgementState: .integer(1), Field.orderId: .string("GPA." + purchase.transactionId),
            ])
        }
        let state: String =
            if !purchase.isActive(at: instant) {
                "SUBSCRIPTION_STATE_EXPIRED"
            } else if purchase.billingIssueAt != nil {
                "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
            } else if purchase.renewState == .cancelled {
                "SUBSCRIPTION_STATE_CANCELED"
            } else {
                "SUBSCRIPTION_STATE_ACTIVE"
            }
        var lineItem: [String: JSONValue] = [
            Field.productId: .string(purchase.productId),
            Field.autoRenewingPlan: .object([Field.autoRenewEnabled: .bool(purchase.renewState == .willRenew)]),
            Field.latestSuccessfulOrderId: .string("GPA." + purchase.currentTransactionId),
        ]
        if let end = purchase.accessEnd { lineItem[Field.expiryTime] = .string(RFC3339.string(from: end)) }
        return .object([
            Field.kind: .string("androidpublisher#subscriptionPurchaseV2"),
            Field.startTime: .string(RFC3339.string(from: purchase.purchasedAt)),
            Field.subscriptionState: .string(state), Field.lineItems: .array([.object(lineItem)]),
            Field.acknowledgementState: .string("ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"),
        ])
    }
}
