// swift-format-ignore-file
// (the examples are kept exactly as the document shows them)
import TestSupport
import EntitlementKit
import EntitlementKitLedger
import EntitlementKitStripe
import Foundation
import Testing

/// Collects the session ids the article's handler asks to fetch.
actor FetchQueue {
    private(set) var sessionIds: [String] = []
    func enqueue(_ sessionId: String) { sessionIds.append(sessionId) }
}

/// The article "Stripe webhooks on your own server", verbatim between the markers, run against a real
/// ledger with signed webhooks.
@Suite("Stripe webhook article", .timeLimit(.minutes(1)))
struct StripeWebhookArticleTests {
    func makeLedger(catalog: EntitlementCatalog, currentSecret: String, previousSecret: String, stateDirectory: URL)
        throws -> EntitlementLedger
    {
        // doc-example: Adapters/Stripe/EntitlementKitStripe.docc/StripeWebhooksOnYourServer.md
        let stripe = StripeLedgerSource(catalog: catalog, webhookSecrets: [currentSecret, previousSecret])
        let ledger = EntitlementLedger(
            sources: [stripe], store: try DirectoryLedgerStore(directory: stateDirectory))
        // end doc-example
        return ledger
    }

    // doc-example: Adapters/Stripe/EntitlementKitStripe.docc/StripeWebhooksOnYourServer.md
    /// POST /webhooks/stripe
    func handleStripeWebhook(body: Data, signature: String?, ledger: EntitlementLedger) async -> Int {
        var headers: [String: String] = [:]
        if let signature { headers["Stripe-Signature"] = signature }
        let notification = LedgerNotification(source: .stripe, body: body, headers: headers, receivedAt: .now)
        do {
            switch try await ledger.apply(notification) {
            case .refreshNeeded(let sessionId, _):
                // A Checkout Session's webhook carries no line items: retrieve the session with
                // expand[]=line_items and apply it as a LedgerDocument.
                await fetchQueue.enqueue(sessionId)
                return 200
            default:
                return 200  // applied, duplicate, unlinked, noChange: Stripe need not send it again
            }
        } catch {
            // A wrong, missing, stale or rotated-out signature (or a sandbox event in production):
            // nothing was stored. A non-2xx answer tells Stripe it was not taken.
            return 400
        }
    }
    // end doc-example

    let fetchQueue = FetchQueue()

    @Test func theHandlerTakesSignedWebhooksAndRefusesOthers() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("StripeArticle-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: state) }
        let ledger = try makeLedger(
            catalog: .identity, currentSecret: StripeLedgerTests.secret, previousSecret: "whsec_previous",
            stateDirectory: state)
        // Signed now: the handler passes the wall clock as the instant received.
        let now = Date()
        let object = subscription(
            items: [subscriptionItem(periodStart: "2025-09-01T00:00:00Z", periodEnd: "2999-01-01T00:00:00Z")],
            extra: ["metadata": ["app_user_id": "alice"]])
        let body = json(stripeEvent("customer.subscription.created", created: "2025-09-01T00:00:00Z", object: object))
        #expect(await handleStripeWebhook(body: body, signature: nil, ledger: ledger) == 400)
        let old = StripeLedgerTests.header(for: body, secret: "whsec_rotated_out", at: now)
        #expect(await handleStripeWebhook(body: body, signature: old, ledger: ledger) == 400)
        #expect(try await ledger.customers().isEmpty)
        let signed = StripeLedgerTests.header(for: body, secret: "whsec_previous", at: now)
        #expect(await handleStripeWebhook(body: body, signature: signed, ledger: ledger) == 200)
        #expect(try await ledger.snapshot(for: "alice", at: now)["prod_Pro"]?.isActive == true)

        var session = checkoutSession(extra: ["metadata": ["app_user_id": "alice"]])
        session["line_items"] = nil
        let completed = json(stripeEvent("checkout.session.completed", id: "evt_2", created: "2025-09-01T00:00:00Z", object: session))
        let header = StripeLedgerTests.header(for: completed, at: now)
        #expect(await handleStripeWebhook(body: completed, signature: header, ledger: ledger) == 200)
        #expect(await fetchQueue.sessionIds == ["cs_1"])
    }
}
