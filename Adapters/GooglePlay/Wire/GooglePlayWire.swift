import EntitlementKit
import Foundation

// The parts of Google Play Developer API responses the mapping reads, already type-checked:
// `purchases.subscriptionsv2.get` (SubscriptionPurchaseV2), `purchases.products.get` (ProductPurchase), and
// the per-customer listing a server that stores purchase tokens keeps. Everything else is ignored.
//
// Internal types: the public face of the module is the unified model.

/// Every purchase one document holds, in document order.
struct PlayPurchases: Sendable, Hashable {
    /// The subscriptions (one for a bare `SubscriptionPurchaseV2`).
    var subscriptions: [PlaySubscriptionPurchase]
    /// The one-time products (one for a bare `ProductPurchase`).
    var products: [PlayProductPurchase]
}

/// One `SubscriptionPurchaseV2`.
struct PlaySubscriptionPurchase: Sendable, Hashable {
    /// The purchase token the listing stores it under; `nil` for a bare response (the token is a path
    /// parameter of the request, not a field of the response).
    var token: String?
    /// Where the purchase sits in the document, for errors about its chain.
    var path: JSONPath
    /// `subscriptionState`.
    var state: PlaySubscriptionState
    /// `startTime`; absent for pending subscriptions.
    var startTime: Date?
    /// `latestOrderId` (deprecated; the fallback transaction id).
    var latestOrderId: String?
    /// `linkedPurchaseToken`: the older subscription this one replaced, re-signed or topped up.
    var linkedPurchaseToken: String?
    /// `canceledStateContext`, as sent in any state (the mapping reads it only where Google sets it).
    var cancellation: PlayCancellation?
    /// `testPurchase` is present: a license tester's purchase.
    var isTestPurchase: Bool
    /// `externalAccountIdentifiers.obfuscatedExternalAccountId`.
    var obfuscatedAccountId: String?
    /// `lineItems`, in order.
    var lineItems: [PlayLineItem]
}

/// `lineItems[i]`: one product of a subscription (the base product or an add-on).
struct PlayLineItem: Sendable, Hashable {
    /// Where the item sits in its purchase's `lineItems`.
    var index: Int
    /// `productId`, without base plan. Required.
    var productId: String
    /// `expiryTime`.
    var expiryTime: Date?
    /// `autoRenewingPlan` or `prepaidPlan`.
    var plan: PlayPlan
    /// `offerDetails.basePlanId`.
    var basePlanId: String?
    /// `offerDetails.offerId`: present for discounted offers, and kept after the offer's phases end.
    var offerId: String?
    /// `offerPhase`: the current pricing phase; `nil` when absent (older responses).
    var offerPhase: PlayOfferPhase?
    /// `latestSuccessfulOrderId`.
    var latestSuccessfulOrderId: String?
    /// `signupPromotion`.
    var signupPromotion: PlaySignupPromotion?
}

/// How a line item is paid.
enum PlayPlan: Sendable, Hashable {
    /// `autoRenewingPlan`, with its `autoRenewEnabled` when sent.
    case autoRenewing(autoRenewEnabled: Bool?)
    /// `prepaidPlan`.
    case prepaid
    /// Neither object is present.
    case unspecified
}

/// `offerPhase`: exactly one of its members names the current phase.
enum PlayOfferPhase: Sendable, Hashable {
    case basePrice
    case freeTrial
    case introductoryPrice
    case prorationPeriod
    /// No member, several members, or a member this version does not know.
    case unrecognized
}

/// `signupPromotion`: a promo code applied at signup.
enum PlaySignupPromotion: Sendable, Hashable {
    /// `oneTimeCode`: a single-use code, whose text Google does not return.
    case oneTimeCode
    /// `vanityCode.promotionCode`: a reusable code, and its text when sent.
    case vanityCode(String?)
    /// Some other (newer) kind of promotion.
    case unrecognized
}

/// `canceledStateContext`: which of its variants is present.
struct PlayCancellation: Sendable, Hashable {
    /// The variant's member name (`userInitiatedCancellation`, …), or several names joined by `,` when
    /// the object (against the documentation) holds more than one; `nil` for an empty object.
    var variant: String?
    /// `userInitiatedCancellation.cancelTime`.
    var userCancelTime: Date?
}

/// One `ProductPurchase` (`purchases.products.get`).
struct PlayProductPurchase: Sendable, Hashable {
    /// The product id: the listing's `productId`, or a bare response's own.
    var productId: String
    /// The purchase token: the listing's `purchaseToken`, or the response's own when sent.
    var token: String?
    /// `purchaseTimeMillis`.
    var purchaseTime: Date
    /// `purchaseState`: 0 purchased, 1 canceled, 2 pending.
    var purchaseState: Int64
    /// `consumptionState`: 0 yet to be consumed, 1 consumed.
    var consumptionState: Int64
    /// `orderId`.
    var orderId: String?
    /// `purchaseType`: absent for the standard flow; 0 test, 1 promo code, 2 rewarded.
    var purchaseType: Int64?
    /// `quantity`; absent means 1.
    var quantity: Int64
    /// `refundableQuantity`, when sent.
    var refundableQuantity: Int64?
    /// `obfuscatedExternalAccountId`.
    var obfuscatedAccountId: String?
}
