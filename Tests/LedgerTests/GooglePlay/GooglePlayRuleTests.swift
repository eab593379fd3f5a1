import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// The Google Play rules of ledger.md beyond the first suite: an RTDN is never filtered by environment,
/// and of two documents fetched at one instant the one that sorts last by bytes is kept.
@Suite("Google Play rules in the ledger", .timeLimit(.minutes(5)))
struct GooglePlayRuleTests {
    typealias Play = GooglePlayLedgerTests

    @Test func anRTDNCarriesNoEnvironmentAndIsNeverFiltered() async throws {
        let sandboxOnly = EntitlementLedger(
            sources: [GooglePlayLedgerSource(catalog: Play.catalog, packageName: Play.package)],
            configuration: LedgerConfiguration(environments: [.sandbox]))
        let push = Play.push(
            messageId: "m1",
            [
                "subscriptionNotification": .object([
                    "version": .string("1.0"), "notificationType": .integer(4), "purchaseToken": .string("tok-1"),
                    "subscriptionId": .string("trails_pro"),
                ])
            ])
        #expect(try await sandboxOnly.apply(push) == .refreshNeeded(purchaseToken: "tok-1", productId: "trails_pro"))
    }

    @Test func ofTwoFetchesAtOneInstantTheLastByBytesIsKept() async throws {
        let april = Play.document(Play.subscription(expiry: "2025-04-01T00:00:00Z"), token: "tok", at: "2025-03-01")
        let may = Play.document(Play.subscription(expiry: "2025-05-01T00:00:00Z"), token: "tok", at: "2025-03-01")
        for order in [[april, may], [may, april]] {
            let ledger = GooglePlayLedgerTests().ledger()
            for document in order { _ = try await ledger.apply(document) }
            let snapshot = try await ledger.snapshot(for: "acct-7", at: midnight("2025-04-15"))
            #expect(snapshot.isActive("pro"), "the May document sorts last by bytes and is kept in either order")
        }
    }
}
