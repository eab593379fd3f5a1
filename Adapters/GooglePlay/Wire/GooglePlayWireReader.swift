import EntitlementKit
import Foundation

// Reading the three documents through `JSONNode`, so every refusal names its path and value.
//
// Strict where access is decided and wherever a value is read: every member read must have the JSON type
// Google's discovery document gives it (int64 values as strings of digits, int32 values as numbers,
// timestamps as RFC 3339 strings), every timestamp must be readable. Unknown enum values are not errors;
// unknown members are ignored.

extension PlayPurchases {
    /// Reads a whole document of the given form.
    init(reading root: JSONNode, form: GooglePlayDocumentForm) throws(DocumentError) {
        switch form {
        case .subscription:
            self.init(subscriptions: [try PlaySubscriptionPurchase(reading: root, token: nil)], products: [])
        case .product:
            self.init(subscriptions: [], products: [try PlayProductPurchase(readingBare: root)])
        case .listing:
            try self.init(readingListing: root)
        }
    }

    /// `{"subscriptions": [{"purchaseToken", "purchase"}], "products": [{"productId", "purchaseToken", "purchase"}]}`.
    /// Either list may be absent. A token listed twice must come with the same purchase both times (it is then
    /// read once); two different purchases under one token contradict each other.
    private init(readingListing root: JSONNode) throws(DocumentError) {
        var subscriptions: [PlaySubscriptionPurchase] = []
        var seenSubscriptions: [String: JSONValue] = [:]
        for entry in try root.optional(Field.subscriptions)?.elements() ?? [] {
            let tokenNode = try entry.required(Field.purchaseToken)
            let token = try tokenNode.nonEmptyIdentifier()
            let purchase = try entry.required(Field.purchase)
            if let seen = seenSubscriptions[token] {
                if seen == purchase.value { continue }
                throw DocumentError(
                    kind: .inconsistent, path: tokenNode.path, offending: tokenNode.value,
                    reason: "is listed twice with different purchases")
            }
            seenSubscriptions[token] = purchase.value
            subscriptions.append(try PlaySubscriptionPurchase(reading: purchase, token: token))
        }

        var products: [PlayProductPurchase] = []
        var seenProducts: [String: (productId: String, purchase: JSONValue)] = [:]
        for entry in try root.optional(Field.products)?.elements() ?? [] {
            let productId = try entry.required(Field.productId).nonEmptyIdentifier()
            let tokenNode = try entry.required(Field.purchaseToken)
            let token = try tokenNode.nonEmptyIdentifier()
            let purchase = try entry.required(Field.purchase)
            if let seen = seenProducts[token] {
                if seen.productId == productId, seen.purchase == purchase.value { continue }
                throw DocumentError(
                    kind: .inconsistent, path: tokenNode.path, offending: tokenNode.value,
                    reason: "is listed twice with different purchases")
            }
            seenProducts[token] = (productId, purchase.value)
            products.append(try PlayProductPurchase(reading: purchase, productId: productId, token: token))
        }
        self.init(subscriptions: subscriptions, products: products)
    }
}

extension PlaySubscriptionPurchase {
    init(reading node: JSONNode, token: String?) throws(DocumentError) {
        if let error = GooglePlayDocumentForm.googleErrorBody(node) { throw error }
        try node.expectKind(GooglePlayDocumentForm.subscriptionKind)
        self.token = token
        path = node.path
        let stateText = try node.required(Field.subscriptionState).string()
        state = PlaySubscriptionState(wire: stateText)
        startTime = try node.optional(Field.startTime)?.date()
        latestOrderId = try node.optional(Field.latestOrderId)?.identifier()
        linkedPurchaseToken = try node.optional(Field.linkedPurchaseToken)?.identifier()
        cancellation = try node.optional(Field.canceledStateContext).map { (context) throws(DocumentError) in
            try PlayCancellation(reading: context)
        }
        if let test = try node.optional(Field.testPurchase) {
            _ = try test.members()
            isTestPurchase = true
        } else {
            isTestPurchase = false
        }
        let accountIdentifiers = try node.optional(Field.externalAccountIdentifiers)
        obfuscatedAccountId = try accountIdentifiers?.optional(Field.obfuscatedExternalAccountId)?.identifier()
        lineItems = try node.required(Field.lineItems).elements().enumerated().map {
            (index, item) throws(DocumentError) in try PlayLineItem(reading: item, index: index)
        }
        // In a state that grants access, the expiry is what ends it: without one the item would read as
        // access forever.
        if state.grantsUntilExpiry, let item = lineItems.first(where: { $0.expiryTime == nil }) {
            throw DocumentError(
                kind: .missingField,
                path: node.path.appending(Field.lineItems).appending(index: item.index).appending(Field.expiryTime),
                reason: "is required while the subscription is \(stateText) but missing")
        }
        if token != nil, token == linkedPurchaseToken {
            let linked = try node.required(Field.linkedPurchaseToken)
            throw DocumentError(
                kind: .inconsistent, path: linked.path, offending: linked.value,
                reason: "links the purchase to itself")
        }
    }
}

extension PlayLineItem {
    init(reading node: JSONNode, index: Int) throws(DocumentError) {
        self.index = index
        productId = try node.required(Field.productId).nonEmptyIdentifier()
        expiryTime = try node.optional(Field.expiryTime)?.date()
        let autoRenewing = try node.optional(Field.autoRenewingPlan)
        let prepaid = try node.optional(Field.prepaidPlan)
        switch (autoRenewing, prepaid) {
        case (let autoRenewing?, nil):
            plan = .autoRenewing(autoRenewEnabled: try autoRenewing.optional(Field.autoRenewEnabled)?.bool())
        case (nil, let prepaid?):
            _ = try prepaid.members()
            plan = .prepaid
        case (nil, nil):
            plan = .unspecified
        case (_?, let prepaid?):
            throw DocumentError(
                kind: .inconsistent, path: prepaid.path, offending: prepaid.value,
                reason: "is set beside autoRenewingPlan: an item is auto-renewing or prepaid, not both")
        }
        let offer = try node.optional(Field.offerDetails)
        basePlanId = try offer?.optional(Field.basePlanId)?.identifier()
        offerId = try offer?.optional(Field.offerId)?.identifier()
        offerPhase = try node.optional(Field.offerPhase).map { (phase) throws(DocumentError) in
            try PlayOfferPhase(reading: phase)
        }
        latestSuccessfulOrderId = try node.optional(Field.latestSuccessfulOrderId)?.identifier()
        signupPromotion = try node.optional(Field.signupPromotion).map { (promotion) throws(DocumentError) in
            try PlaySignupPromotion(reading: promotion)
        }
    }
}

extension PlayOfferPhase {
    /// Exactly one known member names the phase; none, several, or an unknown one is `unrecognized`.
    init(reading node: JSONNode) throws(DocumentError) {
        let names = try node.members().filter { !$0.value.isNull }.keys
        guard names.count == 1, let name = names.first else {
            self = .unrecognized
            return
        }
        switch name {
        case "basePrice": self = .basePrice
        case "freeTrial": self = .freeTrial
        case "introductoryPrice": self = .introductoryPrice
        case "prorationPeriod": self = .prorationPeriod
        default: self = .unrecognized
        }
    }
}

extension PlaySignupPromotion {
    init(reading node: JSONNode) throws(DocumentError) {
        if let vanity = try node.optional(Field.vanityCode) {
            self = .vanityCode(try vanity.optional(Field.promotionCode)?.identifier())
        } else if try node.optional(Field.oneTimeCode) != nil {
            self = .oneTimeCode
        } else {
            self = .unrecognized
        }
    }
}

extension PlayCancellation {
    /// The variant present in `canceledStateContext`. `userInitiatedCancellation.cancelTime`, when sent, must
    /// be a readable timestamp.
    init(reading node: JSONNode) throws(DocumentError) {
        let variants = try node.members().filter { !$0.value.isNull }.keys.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        variant = variants.isEmpty ? nil : variants.joined(separator: ",")
        userCancelTime = try node.optional(Field.userInitiatedCancellation)?.optional(Field.cancelTime)?.date()
    }
}

extension PlayProductPurchase {
    /// A bare `purchases.products.get` response. Google sends the product id only in the request path
    /// ("may not be present" in the response), so a bare response must carry its own `productId`.
    init(readingBare node: JSONNode) throws(DocumentError) {
        if let error = GooglePlayDocumentForm.googleErrorBody(node) { throw error }
        guard let productIdNode = try node.optional(Field.productId) else {
            throw DocumentError(
                kind: .missingField, path: node.path.appending(Field.productId),
                reason:
                    "is required in a bare ProductPurchase (Google sends it only in the request path): use the listing form {\"products\": [{\"productId\", \"purchaseToken\", \"purchase\"}]}"
            )
        }
        let productId = try productIdNode.nonEmptyIdentifier()
        try self.init(reading: node, productId: productId, token: nil)
    }

    /// A `ProductPurchase` whose product id (and token, in a listing) the caller knows. When the response
    /// carries its own `productId` or `purchaseToken` too, they must agree.
    init(reading node: JSONNode, productId: String, token: String?) throws(DocumentError) {
        if let error = GooglePlayDocumentForm.googleErrorBody(node) { throw error }
        try node.expectKind(GooglePlayDocumentForm.productKind)
        if let ownProduct = try node.optional(Field.productId), try ownProduct.identifier() != productId {
            throw DocumentError(
                kind: .inconsistent, path: ownProduct.path, offending: ownProduct.value,
                reason: "differs from the listing's productId \"\(productId)\"")
        }
        let ownToken = try node.optional(Field.purchaseToken)
        if let token, let ownToken, try ownToken.identifier() != token {
            throw DocumentError(
                kind: .inconsistent, path: ownToken.path, offending: ownToken.value,
                reason: "differs from the listing's purchaseToken")
        }
        self.productId = productId
        if let token {
            self.token = token
        } else {
            self.token = try ownToken?.identifier()
        }
        purchaseTime = try node.required(Field.purchaseTimeMillis).dateFromMillisecondString()
        purchaseState = try node.required(Field.purchaseState).integer()
        consumptionState = try node.required(Field.consumptionState).integer()
        orderId = try node.optional(Field.orderId)?.identifier()
        purchaseType = try node.optional(Field.purchaseType)?.integer()
        let quantityNode = try node.optional(Field.quantity)
        quantity = try quantityNode?.integer() ?? 1
        if let quantityNode, quantity < 1 { throw quantityNode.invalid("must be at least 1") }
        let refundableNode = try node.optional(Field.refundableQuantity)
        refundableQuantity = try refundableNode?.integer()
        if let refundableNode, let refundable = refundableQuantity, refundable < 0 || refundable > quantity {
            throw refundableNode.invalid("must be between 0 and the quantity (\(quantity))")
        }
        obfuscatedAccountId = try node.optional(Field.obfuscatedExternalAccountId)?.identifier()
    }
}

extension JSONNode {
    /// A string that names something and so must not be empty (a product id, a purchase token).
    func nonEmptyIdentifier() throws(DocumentError) -> String {
        guard let text = try identifier() else { throw invalid("must not be empty") }
        return text
    }

    /// When the response names its `kind`, it must be the resource expected here (a listing's `purchase`
    /// holding the other resource, or a v1 subscription, is refused rather than misread).
    fileprivate func expectKind(_ expected: String) throws(DocumentError) {
        guard let kind = try optional(Field.kind) else { return }
        guard try kind.string() == expected else {
            throw DocumentError(
                kind: .unrecognizedFormat, path: kind.path, offending: kind.value,
                reason: "is not \(expected)")
        }
    }

    /// Google's int64 timestamps in milliseconds since 1970, sent as a JSON string of digits
    /// (`"1750000000000"`). A number, a fraction, a sign or a value outside the years 0001…9999 is refused:
    /// a value in the wrong unit must not become a date thousands of years away.
    fileprivate func dateFromMillisecondString() throws(DocumentError) -> Date {
        let text = try string()
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let milliseconds = Int64(text), let date = EpochTime.date(millisecondsSince1970: milliseconds)
        else {
            throw invalid("is not a count of milliseconds since 1970 between the years 1970 and 9999")
        }
        return date
    }
}
