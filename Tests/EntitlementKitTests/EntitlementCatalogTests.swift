import EntitlementKit
import Foundation
import Testing

@Suite("EntitlementCatalog: products → entitlements for the stores", .timeLimit(.minutes(5)))
struct EntitlementCatalogTests {
    static func read(_ text: String) throws(DocumentError) -> EntitlementCatalog {
        try EntitlementCatalog(json: Data(text.utf8))
    }

    @Test func theSpecExampleReads() throws {
        let catalog = try Self.read(
            #"""
            {"products": {"com.acme.pro.monthly": {"entitlements": ["pro"]},
                          "com.acme.season": {"entitlements": ["pro", "extras"], "duration": "P3M"}}}
            """#)
        #expect(catalog.entitlementIds(forProduct: "com.acme.pro.monthly") == ["pro"])
        #expect(catalog.entitlementIds(forProduct: "com.acme.season") == ["pro", "extras"])
        #expect(catalog.duration(forProduct: "com.acme.season") == ISODuration(months: 3))
        #expect(catalog.duration(forProduct: "com.acme.pro.monthly") == nil)
        #expect(catalog.entitlementIds(forProduct: "com.acme.unknown").isEmpty, "an unnamed product unlocks nothing")
        #expect(!catalog.isIdentity)
    }

    @Test func withoutACatalogEveryProductIsItsOwnEntitlement() {
        #expect(EntitlementCatalog.identity.entitlementIds(forProduct: "com.acme.pro") == ["com.acme.pro"])
        #expect(EntitlementCatalog.identity.duration(forProduct: "com.acme.pro") == nil)
        #expect(EntitlementCatalog.identity.isIdentity)
        #expect(EntitlementCatalog(products: [:]).entitlementIds(forProduct: "x").isEmpty)
    }

    @Test(
        "a catalog mistake is a located error, never a silent lock-out",
        arguments: [
            (#"{"product": {}}"#, "product", DocumentError.Kind.invalidValue),
            (#"{}"#, "products", .missingField),
            (#"{"products": []}"#, "products", .wrongType),
            (#"{"products": {"a": {"entitlements": []}}}"#, "products.a.entitlements", .invalidValue),
            (#"{"products": {"a": {"entitlements": "pro"}}}"#, "products.a.entitlements", .wrongType),
            (#"{"products": {"a": {"entitlements": ["pro", "pro"]}}}"#, "products.a.entitlements[1]", .invalidValue),
            (#"{"products": {"a": {"entitlements": [""]}}}"#, "products.a.entitlements[0]", .invalidValue),
            (#"{"products": {"a": {"entitlements": [1]}}}"#, "products.a.entitlements[0]", .wrongType),
            (#"{"products": {"a": {"entitlement": ["pro"]}}}"#, "products.a.entitlement", .invalidValue),
            (
                #"{"products": {"a": {"entitlements": ["pro"], "duration": "3 months"}}}"#, "products.a.duration",
                .invalidValue
            ),
            (
                #"{"products": {"a": {"entitlements": ["pro"], "duration": "-P1M"}}}"#, "products.a.duration",
                .invalidValue
            ),
            (
                #"{"products": {"a": {"entitlements": ["pro"], "duration": "PT0S"}}}"#, "products.a.duration",
                .invalidValue
            ),
            (#"{"products": {"a": {"entitlements": ["pro"]}, "a": {"entitlements": ["x"]}}}"#, "products.a", .syntax),
        ])
    func mistakesAreLocated(text: String, path: String, kind: DocumentError.Kind) {
        do {
            _ = try Self.read(text)
            Issue.record("read \(text)")
        } catch {
            #expect(error.path.description == path, "\(error)")
            #expect(error.kind == kind, "\(error)")
        }
    }

    @Test func nullDurationMeansNone() throws {
        let catalog = try Self.read(#"{"products": {"a": {"entitlements": ["pro"], "duration": null}}}"#)
        #expect(catalog.duration(forProduct: "a") == nil)
    }
}
