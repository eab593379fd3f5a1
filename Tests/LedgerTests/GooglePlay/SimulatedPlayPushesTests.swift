import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import Testing

/// The test kit's Play push generator into a real ledger (the "Simulated store notifications" article's
/// example, run as shown): an authenticated push applied, a forged or unsigned one refused; ids new on every
/// run unless seeded.
@Suite("The test kit's simulated Play pushes", .timeLimit(.minutes(5)))
struct SimulatedPlayPushesTests {
    @Test func theArticlesExampleRunsAndAForgedPushIsRefused() async throws {
        // doc-example: Sources/EntitlementKitTesting/EntitlementKitTesting.docc/SimulatedStoreNotifications.md
        let pushes = try SimulatedPlayPushes(
            packageName: "com.example.app", audience: "https://api.example.com/notifications/googlePlay",
            serviceAccountEmail: "rtdn@example-project.iam.gserviceaccount.com")
        let play = GooglePlayLedgerSource(
            packageName: "com.example.app",
            pushAuthentication: GooglePlayPushAuthentication(
                audience: pushes.audience, serviceAccountEmail: pushes.serviceAccountEmail,
                keys: try GoogleSigningKeys(jwks: pushes.jwks)))
        let ledger = EntitlementLedger(sources: [play])

        let token = pushes.purchaseToken()
        let push = pushes.voided(purchaseToken: token, at: .now)
        let outcome = try await ledger.apply(
            LedgerNotification(
                source: .googlePlay, body: Data(push.body.utf8), headers: push.headers, receivedAt: .now))
        // end doc-example
        // Authenticated, the void is taken as fact (kept for the token, whose owner is not known yet), not a
        // question for the server.
        #expect(outcome.name == "unlinked", "\(outcome)")

        // The same push again is a duplicate; a test notification changes nothing.
        let again = try await ledger.apply(
            LedgerNotification(source: .googlePlay, body: Data(push.body.utf8), headers: push.headers, receivedAt: .now)
        )
        #expect(again == .duplicate)
        let test = pushes.test(at: .now)
        #expect(
            try await ledger.apply(
                LedgerNotification(
                    source: .googlePlay, body: Data(test.body.utf8), headers: test.headers, receivedAt: .now)
            ).name == "noChange")

        // Forged: a token for another audience, or none at all.
        let other = try SimulatedPlayPushes(
            packageName: "com.example.app", audience: "https://evil.example",
            serviceAccountEmail: pushes.serviceAccountEmail)
        let subscribed = pushes.subscription(4, purchaseToken: token, at: .now)
        for headers in [other.subscription(4, purchaseToken: token, at: .now).headers, [:]] {
            do {
                _ = try await ledger.apply(
                    LedgerNotification(
                        source: .googlePlay, body: Data(subscribed.body.utf8), headers: headers, receivedAt: .now))
                Issue.record("a forged push was taken")
            } catch {
                #expect(error.kind == .unauthenticated)
            }
        }
        // The genuine one, refused nothing of before, asks for a refresh.
        #expect(
            try await ledger.apply(
                LedgerNotification(
                    source: .googlePlay, body: Data(subscribed.body.utf8), headers: subscribed.headers, receivedAt: .now
                ))
                == .refreshNeeded(purchaseToken: token, productId: nil))
    }

    @Test func idsAreNewOnEveryRunUnlessSeeded() throws {
        func ids(_ seed: UInt64?) throws -> [String] {
            let pushes = try SimulatedPlayPushes(
                packageName: "p", audience: "a", serviceAccountEmail: "e", seed: seed)
            let token = pushes.purchaseToken()
            return [token, pushes.oneTimeProduct(1, purchaseToken: token, sku: "coins", at: .now).messageId]
        }
        #expect(try ids(nil) != ids(nil))
        #expect(try ids(7) == ids(7))
    }
}
