import EntitlementKit
import EntitlementKitGooglePlay
import Foundation
import Testing

/// Fail closed: a wrong type where a value is read, an unreadable timestamp, a granting item without an
/// expiry — a located error for the whole document, never a partial snapshot.
@Suite("Google Play failures", .timeLimit(.minutes(5)))
struct FailureTests {
    private func expectFailure(
        _ document: [String: Any], _ kind: DocumentError.Kind, at path: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = playFailure(document)
        #expect(error?.kind == kind, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.path.description == path, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test("unreadable timestamps")
    func timestamps() {
        for bad in ["2025-09-31T00:00:00Z", "2025-09-01T00:00:00", "1759276800000", "", "next week"] {
            expectFailure(subscription(items: [lineItem(expiry: bad)]), .invalidValue, at: "lineItems[0].expiryTime")
            expectFailure(subscription(start: bad), .invalidValue, at: "startTime")
        }
        expectFailure(
            subscription(items: [lineItem(extra: ["expiryTime": 1_759_276_800_000])]), .wrongType,
            at: "lineItems[0].expiryTime")
        let cancel = ["userInitiatedCancellation": ["cancelTime": "yesterday"]]
        expectFailure(
            subscription("CANCELED", extra: ["canceledStateContext": cancel]), .invalidValue,
            at: "canceledStateContext.userInitiatedCancellation.cancelTime")
        for bad in ["", "-1", "1.5", "17e11", " 1750000000000", "253402300800000", "99999999999999999999"] {
            let document = listing(products: [("acme_x", "tok", productPurchase(time: bad))])
            expectFailure(document, .invalidValue, at: "products[0].purchase.purchaseTimeMillis")
        }
        let number = listing(products: [
            ("acme_x", "tok", productPurchase().merging(["purchaseTimeMillis": 1_750_000_000_000]) { $1 })
        ])
        expectFailure(number, .wrongType, at: "products[0].purchase.purchaseTimeMillis")
    }

    @Test(
        "a granting state needs an expiry; other states do not", arguments: ["ACTIVE", "IN_GRACE_PERIOD", "CANCELED"])
    func expiryRequiredWhereItGrants(_ state: String) throws {
        let items = [lineItem(), lineItem(product: "acme_addon", expiry: nil)]
        expectFailure(subscription(state, items: items), .missingField, at: "lineItems[1].expiryTime")
        #expect(try playSnapshot(subscription("ON_HOLD", items: items))["acme_addon"]?.isActive == false)
    }

    @Test("wrong types where values are read")
    func wrongTypes() {
        expectFailure(subscription().merging(["subscriptionState": 1]) { $1 }, .wrongType, at: "subscriptionState")
        expectFailure(subscription().merging(["lineItems": [:]]) { $1 }, .wrongType, at: "lineItems")
        expectFailure(
            subscription(items: [lineItem(autoRenew: nil, extra: ["autoRenewingPlan": ["autoRenewEnabled": "yes"]])]),
            .wrongType, at: "lineItems[0].autoRenewingPlan.autoRenewEnabled")
        expectFailure(
            subscription(items: [lineItem(extra: ["productId": 7])]), .wrongType, at: "lineItems[0].productId")
        expectFailure(
            subscription(items: [lineItem(extra: ["productId": ""])]), .invalidValue, at: "lineItems[0].productId")
        expectFailure(subscription(extra: ["testPurchase": true]), .wrongType, at: "testPurchase")
        expectFailure(
            subscription(items: [lineItem(extra: ["offerPhase": "freeTrial"])]), .wrongType,
            at: "lineItems[0].offerPhase")
        expectFailure(subscription(extra: ["linkedPurchaseToken": 5]), .wrongType, at: "linkedPurchaseToken")
        expectFailure(["subscriptions": [:]], .wrongType, at: "subscriptions")
        expectFailure(
            ["subscriptions": [["purchase": subscription()]]], .missingField, at: "subscriptions[0].purchaseToken")
        expectFailure(
            ["products": [["purchaseToken": "t", "purchase": productPurchase()]]], .missingField,
            at: "products[0].productId")
        let product = { (extra: [String: Any]) in listing(products: [("acme_x", "tok", productPurchase(extra: extra))])
        }
        expectFailure(product(["purchaseState": "0"]), .wrongType, at: "products[0].purchase.purchaseState")
        expectFailure(product(["consumptionState": true]), .wrongType, at: "products[0].purchase.consumptionState")
        expectFailure(product(["purchaseType": "0"]), .wrongType, at: "products[0].purchase.purchaseType")
        expectFailure(product(["quantity": 0]), .invalidValue, at: "products[0].purchase.quantity")
        expectFailure(
            product(["quantity": 1, "refundableQuantity": 2]), .invalidValue,
            at: "products[0].purchase.refundableQuantity")
        expectFailure(product(["refundableQuantity": -1]), .invalidValue, at: "products[0].purchase.refundableQuantity")
        expectFailure(
            listing(products: [("acme_x", "tok", ["purchaseTimeMillis": "1"])]), .missingField,
            at: "products[0].purchase.purchaseState")
    }

    @Test("contradictions")
    func contradictions() {
        expectFailure(
            subscription(items: [lineItem(extra: ["prepaidPlan": [:]])]), .inconsistent, at: "lineItems[0].prepaidPlan")
        let product = listing(products: [("acme_x", "tok", productPurchase(extra: ["productId": "acme_y"]))])
        expectFailure(product, .inconsistent, at: "products[0].purchase.productId")
        let token = listing(products: [("acme_x", "tok", productPurchase(extra: ["purchaseToken": "other"]))])
        expectFailure(token, .inconsistent, at: "products[0].purchase.purchaseToken")
    }

    @Test("not JSON objects")
    func notObjects() {
        #expect(playFailure(text: "[]")?.kind == .wrongType)
        #expect(playFailure(text: "\"x\"")?.kind == .wrongType)
        #expect(playFailure(text: "{\"lineItems\": [")?.kind == .syntax)
    }
}
