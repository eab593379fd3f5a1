import EntitlementKit
import EntitlementKitLedger
import EntitlementKitStripe
import Foundation
import TestSupport
import Testing

/// A thread holding one Stripe subscription is read back alone — not inside the combined per-customer
/// object — with the combined object's checks: a stored body that is no subscription object is refused.
@Suite("A stored Stripe subscription read back", .timeLimit(.minutes(1)))
struct StripeStoredSubscriptionTests {
    static func thread(body: [String: Any]) -> LedgerThread {
        var thread = LedgerThread(id: LedgerThreadID(source: .stripe, key: "sub_1"))
        _ = thread.keep(
            LedgerRecord(
                thread: "sub_1", statement: "subscription", order: LedgerOrderKey([.number(1)]), body: json(body),
                isVerified: false, instant: evaluationInstant, environment: .production))
        return thread
    }

    @Test func oneStoredSubscriptionMapsAndOneWithoutItsObjectIsRefused() throws {
        let source = StripeLedgerSource(webhookSecrets: [])
        let stored = StripeLedgerTests.owned(by: "alice")
        let snapshot = try source.snapshot(of: [Self.thread(body: stored)], at: evaluationInstant)
        #expect(snapshot["prod_Pro"]?.isActive == true)

        var unnamed = stored
        unnamed["object"] = nil
        #expect(throws: LedgerRefusal.self) {
            _ = try source.snapshot(of: [Self.thread(body: unnamed)], at: evaluationInstant)
        }
        var session = stored
        session["object"] = "checkout.session"
        #expect(throws: LedgerRefusal.self) {
            _ = try source.snapshot(of: [Self.thread(body: session)], at: evaluationInstant)
        }
    }
}
