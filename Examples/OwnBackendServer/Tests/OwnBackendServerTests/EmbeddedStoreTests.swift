import EntitlementKit
import EntitlementKitTesting
import Foundation
import ServerHarness
import Testing

/// The server as `swift run` starts it on a fresh machine: the embedded store, no database, no Pub/Sub
/// push authentication configured.
@Suite(.timeLimit(.minutes(5)))
struct EmbeddedStoreTests {
    @Test func withoutPushAuthenticationAVoidIsCheckedWithGoogle() async throws {
        let api = StoreAPIStandIn()
        try await api.start()
        defer { api.stop() }
        let notifications = try AppStoreNotifications()
        let deployment = try TestDeployment(database: nil, api: api.baseURL, notifications: notifications)
        let server = try await ServerProcess(environment: deployment.environment)
        let pushes = try SimulatedPlayPushes(
            packageName: TestApp.packageName, audience: "https://ledger.example.com/notifications/googleplay",
            serviceAccountEmail: "play-rtdn@example-project.iam.gserviceaccount.com")
        let now = Date()
        let purchaseToken = pushes.purchaseToken()
        api.set(
            PlayInputs.subscription(
                accountToken: UUID().uuidString.lowercased(), start: now - 60, expires: now + 30 * 86_400),
            for: purchaseToken)
        // Google's token on it or not, an unchecked push is no fact: the server asks Google.
        let void = pushes.voided(purchaseToken: purchaseToken, at: now)
        let (status, _) = try await HTTP.send(
            "POST", server.baseURL.appendingPathComponent("notifications/googleplay"), headers: void.headers,
            body: Data(void.body.utf8))
        #expect(status == 204, "\(server.standardError)")
        #expect(api.authorizations == ["Bearer " + StoreAPIStandIn.accessToken], "the purchase was fetched from Google")
    }
}
