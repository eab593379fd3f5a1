import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitGooglePlay
import Foundation
import TestSupport
import Testing

/// Which documents the adapter claims, and that it never claims another backend's.
@Suite("Google Play document forms", .timeLimit(.minutes(5)))
struct DocumentFormTests {
    let adapter = GooglePlayAdapter()

    private func recognizes(_ object: [String: Any]) throws -> Bool {
        adapter.recognizes(try JSONValue.parse(json(object)))
    }

    @Test("the three forms are recognised by their shape")
    func recognisedForms() throws {
        #expect(try recognizes(subscription()))
        #expect(try recognizes(["kind": "androidpublisher#subscriptionPurchaseV2"]))
        #expect(try recognizes(productPurchase()))
        #expect(try recognizes(["kind": "androidpublisher#productPurchase"]))
        #expect(try recognizes(listing(subscriptions: [("tok", subscription())])))
        #expect(try recognizes(["products": []]))
        #expect(try recognizes(["subscriptions": [], "products": []]))
    }

    @Test("lookalikes are not claimed")
    func lookalikes() throws {
        #expect(try !recognizes([:]))
        #expect(try !recognizes(["lineItems": []]))  // no state
        #expect(try !recognizes(["purchaseTimeMillis": "1", "purchaseState": "0"]))  // state not a number
        #expect(try !recognizes(["kind": "androidpublisher#subscriptionPurchase", "expiryTimeMillis": "1"]))
        #expect(try !recognizes(["subscriptions": ["acme": ["vendor_product_id": "acme"]]]))  // Adapty: an object
        #expect(try !recognizes(["subscriptions": [["vendor_product_id": "acme"]]]))  // elements without purchase
        #expect(try !recognizes(["subscriber": [:], "subscriptions": []]))
        #expect(try !recognizes(["data": [], "products": []]))
        #expect(try !recognizes(["schemaVersion": 2, "products": []]))
        #expect(!adapter.recognizes(.array([])))
    }

    @Test(
        "no other backend's fixture is claimed, and every Google Play fixture is",
        arguments: ProviderID.backends + [.googlePlay])
    func noCollisions(_ provider: ProviderID) throws {
        for scenario in try FixtureCatalog.scenarios(provider: provider) {
            guard let document = try? JSONValue.parse(scenario.document()) else { continue }
            if provider == .googlePlay {
                if case .snapshot = scenario.expectation { #expect(adapter.recognizes(document), "\(scenario)") }
            } else {
                #expect(!adapter.recognizes(document), "\(scenario)")
            }
        }
    }

    @Test("a bare ProductPurchase without its productId is refused, naming the listing form")
    func bareProductNeedsItsId() throws {
        let error = try #require(playFailure(productPurchase()))
        #expect(error.kind == .missingField)
        #expect(error.path.description == "productId")
        #expect(error.description.contains("{\"products\": [{\"productId\", \"purchaseToken\", \"purchase\"}]}"))
        let named = productPurchase(extra: ["productId": "acme_lifetime", "purchaseToken": "tok-own"])
        let lifetime = try #require(try playSnapshot(named)["acme_lifetime"])
        #expect(lifetime.isActive)
        #expect(lifetime.transactions.first?.originalTransactionId == "tok-own")
    }

    @Test("responses Google's API gives that this version does not read are refused by name")
    func otherResources() throws {
        let v1 = try #require(playFailure(["expiryTimeMillis": "1760000000000", "paymentState": 1]))
        #expect(v1.kind == .unrecognizedFormat)
        #expect(v1.description.contains("subscriptionsv2"))
        let v2Product = try #require(
            playFailure(["kind": "androidpublisher#productPurchaseV2", "productLineItem": []]))
        #expect(v2Product.kind == .unrecognizedFormat)
        #expect(v2Product.path.description == "kind")
        #expect(playFailure(["orderId": "GPA.1"])?.kind == .unrecognizedFormat)
        let mixed = listing(products: [("acme_x", "tok", ["kind": "androidpublisher#subscriptionPurchaseV2"])])
        #expect(playFailure(mixed)?.path.description == "products[0].purchase.kind")
    }

    @Test("a Google API error body is a vendor error, at the top or inside a listing")
    func errorBodies() throws {
        let body: [String: Any] = ["error": ["code": 410, "message": "expired for too long", "status": "GONE"]]
        let top = try #require(playFailure(body))
        #expect(top.kind == .vendorError)
        #expect(top.description.contains("code 410: expired for too long"))
        let inside = try #require(playFailure(listing(subscriptions: [("tok", body)])))
        #expect(inside.kind == .vendorError)
        #expect(inside.path.description == "subscriptions[0].purchase.error")
    }
}
