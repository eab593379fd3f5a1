import EntitlementKit
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import Testing

/// The "Running your own backend" article's push authentication, run: Google's keys are the test kit's
/// (``SimulatedPlayPushes``), its pushes made for the article's audience and service account.
@Suite("The article's Google push authentication", .timeLimit(.minutes(2)))
struct PushAuthenticationExampleTests {
    @Test("a push with its token is read; the same push without it is refused unauthenticated")
    func tokenTakenAndMissingTokenRefused() async throws {
        let pushes = try SimulatedPlayPushes(
            packageName: "com.example.app", audience: "https://your.server/notifications/googlePlay",
            serviceAccountEmail: "rtdn-push@your-project.iam.gserviceaccount.com")
        let push = pushes.test(at: Date())
        let outcome = try await runningYourOwnBackendPushAuthentication(
            catalog: .identity, googleCertsDocument: pushes.jwks, pushBody: Data(push.body.utf8),
            pushHeaders: push.headers)
        #expect(outcome.name == "noChange")
        do {
            _ = try await runningYourOwnBackendPushAuthentication(
                catalog: .identity, googleCertsDocument: pushes.jwks, pushBody: Data(push.body.utf8), pushHeaders: [:])
            Issue.record("a push without its token was taken")
        } catch let refusal as LedgerRefusal {
            #expect(refusal.kind == .unauthenticated)
        }
    }
}
