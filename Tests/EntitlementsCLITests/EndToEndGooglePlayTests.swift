import EntitlementKit
import Foundation
import Testing

/// `--from googleplay` end to end: the built tool reads Play responses and listings, with and without a
/// catalog, detects them without `--from`, and refuses what the adapter refuses.
@Suite("entitlements with Google Play documents", .timeLimit(.minutes(5)))
struct EndToEndGooglePlayTests {
    typealias Tool = EntitlementsTool

    static func fixture(_ name: String) -> String { "Fixtures/googleplay/" + name }

    @Test func convertWithTheCatalogPrintsTheHandWrittenSnapshot() async throws {
        let result = try await Tool.run([
            "convert", "--from", "googleplay", "--catalog", Self.fixture("catalog.json"), "--at",
            "2025-09-15T10:00:00Z", Self.fixture("listing-upgrade-chain.json"),
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let printed = try JSONValue.parse(Data(result.stdout.utf8))
        let expected = try JSONValue.parse(
            Data(try Tool.repositoryFile(Self.fixture("listing-upgrade-chain.expected.json")).utf8))
        #expect(printed == expected)
    }

    @Test func aPlayResponseIsDetectedWithoutFromAndEachProductIsItsOwnEntitlement() async throws {
        let result = try await Tool.run([
            "check", "--at", "2025-09-15T10:00:00Z", Self.fixture("sub-with-add-on.json"), "acme_pro",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                evaluated at 2025-09-15T10:00:00Z
                ID        ACTIVE  RENEW STATE  EXPIRES               STORE      PRODUCT   WHY
                acme_pro  yes     willRenew    2025-10-01T00:00:00Z  playStore  acme_pro  until 2025-10-01T00:00:00Z

                """)
        let both = try await Tool.run([
            "check", "--at", "2025-09-15T10:00:00Z", Self.fixture("sub-with-add-on.json"), "acme_pro",
            "acme_storage_addon",
        ])
        #expect(both.status == 1)
    }

    @Test func checkWithTheCatalogAnswersForEntitlements() async throws {
        let arguments = [
            "check", "--from", "googleplay", "--catalog", Self.fixture("catalog.json"), "--at", "2025-09-15T10:00:00Z",
            Self.fixture("listing-upgrade-chain.json"),
        ]
        #expect(try await Tool.run(arguments + ["pro", "no_ads"]).status == 0)
        #expect(try await Tool.run(arguments + ["basic"]).status == 1)
    }

    @Test func aBareProductPurchaseWithoutItsIdIsRefusedNamingTheListingForm() async throws {
        let result = try await Tool.run([
            "convert", "--from", "googleplay", "--at", "2025-09-15T10:00:00Z",
            Self.fixture("product-bare-without-product-id.json"),
        ])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                #"productId: is required in a bare ProductPurchase (Google sends it only in the request path): use the listing form {"products": [{"productId", "purchaseToken", "purchase"}]}"#
            ))
    }
}
