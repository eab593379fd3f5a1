import EntitlementKit
import EntitlementKitCrypto
import EntitlementKitLedger
import EntitlementKitStripe
import Foundation
import TestSupport
import Testing

/// Stripe webhooks and documents through an `EntitlementLedger` (ledger.md): verification at the instant
/// received, the fold by (`created`, rank, event id), idempotency by event id, linking, environments, and
/// one-time purchases with their refunds.
///
/// The signatures here are made with the package's `HMACSHA256` (the crypto module's, held to RFC 4231 in
/// its own tests); the verifier itself is held to independently computed values in
/// ``StripeWebhookVerifierTests``.
@Suite("Stripe as a ledger source", .timeLimit(.minutes(1)))
struct StripeLedgerTests {
    static let secret = "whsec_ledger_current"
    static let oldSecret = "whsec_ledger_rotated_out"
    static let receivedAt = evaluationInstant

    static func header(for body: Data, secret: String = secret, at instant: Date = receivedAt) -> String {
        let t = Int64(instant.timeIntervalSince1970)
        let code = HMACSHA256.authenticationCode(for: Array("\(t).".utf8) + Array(body), key: Array(secret.utf8))
        return "t=\(t),v1=" + code.map { String(format: "%02x", $0) }.joined()
    }

    static func webhook(
        _ event: [String: Any], signedWith secret: String? = secret, signedAt: Date = receivedAt,
        receivedAt: Date = receivedAt
    ) -> LedgerNotification {
        let body = json(event)
        var headers: [String: String] = ["Content-Type": "application/json"]
        if let secret { headers["Stripe-Signature"] = header(for: body, secret: secret, at: signedAt) }
        return LedgerNotification(source: .stripe, body: body, headers: headers, receivedAt: receivedAt)
    }

    static func ledger(
        key: String = "app_user_id", environments: Set<Environment> = [.production],
        catalog: EntitlementCatalog = .identity
    ) -> EntitlementLedger {
        EntitlementLedger(
            sources: [StripeLedgerSource(catalog: catalog, webhookSecrets: [secret], appUserIdMetadataKey: key)],
            configuration: LedgerConfiguration(environments: environments))
    }

    static func owned(by user: String, _ extra: [String: Any] = [:], status: String = "active") -> [String: Any] {
        subscription(status, extra: ["metadata": ["app_user_id": user]].merging(extra) { _, new in new })
    }

    func refusal(_ notification: LedgerNotification, into ledger: EntitlementLedger) async -> LedgerRefusal? {
        do {
            _ = try await ledger.apply(notification)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Verification

    @Test func aSignedWebhookGrantsItsCustomerAVerifiedSnapshot() async throws {
        let ledger = Self.ledger()
        let event = stripeEvent(
            "customer.subscription.created", created: "2025-09-01T00:00:00Z", object: Self.owned(by: "alice"))
        #expect(try await ledger.apply(Self.webhook(event)) == .applied(customers: ["alice"]))
        let snapshot = try await ledger.snapshot(for: "alice", at: Self.receivedAt)
        #expect(snapshot["prod_Pro"]?.isActive == true)
        #expect(snapshot["prod_Pro"]?.store == .stripe)
        #expect(snapshot.verification == .verified)
        #expect(snapshot.provider == .ledger)
    }

    @Test func aWrongMissingStaleOrRotatedOutSignatureIsRefusedAndStoresNothing() async throws {
        let ledger = Self.ledger()
        let event = stripeEvent(
            "customer.subscription.created", created: "2025-09-01T00:00:00Z", object: Self.owned(by: "alice"))
        var forged = Self.webhook(event)
        forged.headers["Stripe-Signature"] = "t=1757930400,v1=" + String(repeating: "0", count: 64)
        let cases: [(LedgerNotification, LedgerRefusal.Kind)] = [
            (forged, .signature),
            (Self.webhook(event, signedWith: nil), .signature),
            (Self.webhook(event, signedWith: Self.oldSecret), .signature),
            (Self.webhook(event, signedAt: Self.receivedAt.addingTimeInterval(-301)), .timestamp),
            (Self.webhook(event, signedAt: Self.receivedAt.addingTimeInterval(301)), .timestamp),
        ]
        for (notification, kind) in cases {
            #expect(await refusal(notification, into: ledger)?.kind == kind)
        }
        #expect(try await ledger.customers().isEmpty)
        // Nothing was marked seen either: the genuine delivery of the same event id still applies.
        #expect(try await ledger.apply(Self.webhook(event)) == .applied(customers: ["alice"]))
    }

    @Test func theToleranceIsCheckedAgainstTheInstantReceivedNotTheWallClock() async throws {
        let ledger = Self.ledger()
        let longAgo = instant("2021-03-01T12:00:00Z")
        let event = stripeEvent(
            "customer.subscription.created", created: "2021-03-01T11:59:00Z", object: Self.owned(by: "alice"))
        #expect(
            try await ledger.apply(Self.webhook(event, signedAt: longAgo, receivedAt: longAgo.addingTimeInterval(299)))
                == .applied(customers: ["alice"]))
    }

    @Test func aCurrentSecretAmongSeveralV1IsAccepted() async throws {
        let ledger = Self.ledger()
        let event = stripeEvent(
            "customer.subscription.created", created: "2025-09-01T00:00:00Z", object: Self.owned(by: "alice"))
        var notification = Self.webhook(event)
        let body = notification.body
        let old = Self.header(for: body, secret: Self.oldSecret).split(separator: ",")[1]
        notification.headers["stripe-signature"] = Self.header(for: body) + "," + old
        notification.headers["Stripe-Signature"] = nil
        #expect(try await ledger.apply(notification) == .applied(customers: ["alice"]))
    }

    @Test func aRedeliveredEventIsADuplicateAndASeenIdWithABadSignatureIsRefused() async throws {
        let ledger = Self.ledger()
        let event = stripeEvent(
            "customer.subscription.created", created: "2025-09-01T00:00:00Z", object: Self.owned(by: "alice"))
        _ = try await ledger.apply(Self.webhook(event))
        #expect(
            try await ledger.apply(Self.webhook(event, receivedAt: Self.receivedAt.addingTimeInterval(60), ))
                == .duplicate)
        #expect(await refusal(Self.webhook(event, signedWith: Self.oldSecret), into: ledger)?.kind == .signature)
    }

    @Test func testModeIsRefusedUnlessTheLedgerAcceptsSandbox() async throws {
        var object = Self.owned(by: "alice")
        object["livemode"] = false
        var event = stripeEvent("customer.subscription.created", created: "2025-09-01T00:00:00Z", object: object)
        event["livemode"] = false
        #expect(await refusal(Self.webhook(event), into: Self.ledger())?.kind == .environment)
        let sandbox = Self.ledger(environments: [.sandbox])
        #expect(try await sandbox.apply(Self.webhook(event)) == .applied(customers: ["alice"]))
        #expect(try await sandbox.snapshot(for: "alice", at: Self.receivedAt)["prod_Pro"]?.isSandbox == true)
    }

    // MARK: Order

    /// The updates of one subscription, delivered in every order, keep the one greatest by
    /// (`created`, rank, event id).
    @Test func anyDeliveryOrderKeepsTheGreatestEvent() async throws {
        let active = Self.owned(by: "alice")
        let canceled = Self.owned(
            by: "alice", ["ended_at": seconds("2025-09-10T00:00:00Z"), "canceled_at": seconds("2025-09-10T00:00:00Z")],
            status: "canceled")
        let cases: [([[String: Any]], Bool)] = [
            // Later `created` wins.
            (
                [
                    stripeEvent(
                        "customer.subscription.updated", id: "evt_b", created: "2025-09-10T00:00:00Z", object: canceled),
                    stripeEvent(
                        "customer.subscription.updated", id: "evt_a", created: "2025-09-10T00:00:01Z", object: active),
                ], true
            ),
            // Same second: a deletion follows an update.
            (
                [
                    stripeEvent(
                        "customer.subscription.deleted", id: "evt_a", created: "2025-09-10T00:00:00Z", object: canceled),
                    stripeEvent(
                        "customer.subscription.updated", id: "evt_z", created: "2025-09-10T00:00:00Z", object: active),
                ], false
            ),
            // Same second: an update follows the creation.
            (
                [
                    stripeEvent(
                        "customer.subscription.created", id: "evt_z", created: "2025-09-10T00:00:00Z", object: canceled),
                    stripeEvent(
                        "customer.subscription.updated", id: "evt_a", created: "2025-09-10T00:00:00Z", object: active),
                ], true
            ),
            // Same second and rank: the event id's bytes decide.
            (
                [
                    stripeEvent(
                        "customer.subscription.updated", id: "evt_B", created: "2025-09-10T00:00:00Z", object: canceled),
                    stripeEvent(
                        "customer.subscription.updated", id: "evt_a", created: "2025-09-10T00:00:00Z", object: active),
                ], true
            ),
        ]
        for (events, activeAfter) in cases {
            for order in [events, events.reversed()] {
                let ledger = Self.ledger()
                for event in order { _ = try await ledger.apply(Self.webhook(event)) }
                for event in order { #expect(try await ledger.apply(Self.webhook(event)) == .duplicate) }
                let snapshot = try await ledger.snapshot(for: "alice", at: Self.receivedAt)
                #expect(snapshot["prod_Pro"]?.isActive == activeAfter, "\(order.map { $0["id"] ?? "" })")
            }
        }
    }

    @Test func aFetchedObjectCountsAsCreatedWhenReceived() async throws {
        let ledger = Self.ledger()
        let canceled = Self.owned(by: "alice", ["ended_at": seconds("2025-09-10T00:00:00Z")], status: "canceled")
        let deleted = stripeEvent(
            "customer.subscription.deleted", created: "2025-09-10T00:00:00Z", object: canceled)
        _ = try await ledger.apply(Self.webhook(deleted))
        // Fetched before the deletion: older.
        let early = LedgerDocument(
            source: .stripe, body: json(Self.owned(by: "alice")), receivedAt: instant("2025-09-09T00:00:00Z"))
        #expect(
            try await ledger.apply(early)
                == .noChange(reason: "every statement is older than, or the same as, the one kept"))
        #expect(try await ledger.snapshot(for: "alice", at: Self.receivedAt)["prod_Pro"]?.isActive == false)
        // Fetched after it: newer.
        let late = LedgerDocument(
            source: .stripe, body: json(Self.owned(by: "alice")), receivedAt: instant("2025-09-11T00:00:00Z"))
        #expect(try await ledger.apply(late) == .applied(customers: ["alice"]))
        #expect(try await ledger.snapshot(for: "alice", at: Self.receivedAt)["prod_Pro"]?.isActive == true)
    }

    // MARK: Linking

    @Test func aRegisteredCustomerIdWinsOverMetadataWhichWinsOverClientReference() async throws {
        let ledger = Self.ledger()
        _ = try await ledger.link(stripeCustomer: "cus_1", to: "bob")
        let event = stripeEvent(
            "customer.subscription.created", created: "2025-09-01T00:00:00Z", object: Self.owned(by: "alice"))
        #expect(try await ledger.apply(Self.webhook(event)) == .applied(customers: ["bob"]))

        let sessions = Self.ledger()
        let session = checkoutSession(extra: [
            "customer": "cus_9", "client_reference_id": "carol", "metadata": ["app_user_id": "dora"],
        ])
        #expect(
            try await sessions.apply(LedgerDocument(source: .stripe, body: json(session), receivedAt: Self.receivedAt))
                == .applied(customers: ["dora"]))
        let byReference = checkoutSession(
            id: "cs_2", extra: ["customer": "cus_9", "client_reference_id": "carol", "payment_intent": "pi_2"])
        #expect(
            try await sessions.apply(
                LedgerDocument(source: .stripe, body: json(byReference), receivedAt: Self.receivedAt))
                == .applied(customers: ["carol"]))
    }

    @Test func theMetadataKeyIsConfigurable() async throws {
        let ledger = Self.ledger(key: "uid")
        let object = subscription(extra: ["metadata": ["app_user_id": "alice", "uid": "uma"]])
        let event = stripeEvent("customer.subscription.created", created: "2025-09-01T00:00:00Z", object: object)
        #expect(try await ledger.apply(Self.webhook(event)) == .applied(customers: ["uma"]))
    }

    @Test func aPurchaseNamingNoOneWaitsForTheLinkOfItsCustomerId() async throws {
        let ledger = Self.ledger()
        let event = stripeEvent(
            "customer.subscription.created", created: "2025-09-01T00:00:00Z", object: subscription())
        #expect(
            try await ledger.apply(Self.webhook(event))
                == .unlinked(thread: LedgerThreadID(source: .stripe, key: "sub_1")))
        #expect(try await ledger.link(stripeCustomer: "cus_1", to: "erin") == .applied(customers: ["erin"]))
        #expect(try await ledger.snapshot(for: "erin", at: Self.receivedAt)["prod_Pro"]?.isActive == true)
    }

    // MARK: One-time purchases

    @Test func aCompletedSessionAsksForItsLineItemsThenARefundRevokesIt() async throws {
        let catalog = EntitlementCatalog(products: ["prod_Life": .init(entitlementIds: ["lifetime"])])
        for refundFirst in [false, true] {
            let ledger = Self.ledger(catalog: catalog)
            var bare = checkoutSession(extra: ["metadata": ["app_user_id": "alice"]])
            bare["line_items"] = nil
            let completed = stripeEvent(
                "checkout.session.completed", id: "evt_c", created: "2025-07-01T00:00:00Z", object: bare)
            #expect(
                try await ledger.apply(Self.webhook(completed)) == .refreshNeeded(purchaseToken: "cs_1", productId: nil)
            )
            let refund: [String: Any] = [
                "id": "ch_1", "object": "charge", "livemode": true, "refunded": true, "payment_intent": "pi_1",
                "amount_refunded": 900,
                "refunds": stripeList([["id": "re_1", "object": "refund", "created": seconds("2025-08-01T00:00:00Z")]]),
            ]
            let refunded = stripeEvent("charge.refunded", id: "evt_r", created: "2025-08-01T00:00:00Z", object: refund)
            let fetched = LedgerDocument(
                source: .stripe, body: json(checkoutSession(extra: ["metadata": ["app_user_id": "alice"]])),
                receivedAt: instant("2025-07-01T00:01:00Z"))
            if refundFirst {
                _ = try await ledger.apply(Self.webhook(refunded))
                #expect(try await ledger.apply(fetched) == .applied(customers: ["alice"]))
            } else {
                #expect(try await ledger.apply(fetched) == .applied(customers: ["alice"]))
                #expect(try await ledger.snapshot(for: "alice", at: Self.receivedAt)["lifetime"]?.isActive == true)
                #expect(try await ledger.apply(Self.webhook(refunded)) == .applied(customers: ["alice"]))
            }
            let lifetime = try await ledger.snapshot(for: "alice", at: Self.receivedAt)["lifetime"]
            #expect(lifetime?.isActive == false)
            #expect(lifetime?.refundedAt == instant("2025-08-01T00:00:00Z"))
        }
    }

    @Test func eventsThatChangeNoAccessStoreNothingButAreSeen() async throws {
        let ledger = Self.ledger()
        let invoice = stripeEvent(
            "invoice.paid", id: "evt_i", created: "2025-09-01T00:00:00Z", object: ["id": "in_1", "object": "invoice"])
        guard case .noChange = try await ledger.apply(Self.webhook(invoice)) else {
            Issue.record("an invoice event changed something")
            return
        }
        #expect(try await ledger.apply(Self.webhook(invoice)) == .duplicate)
        let partial: [String: Any] = [
            "id": "ch_2", "object": "charge", "livemode": true, "refunded": false, "amount_refunded": 100,
            "payment_intent": "pi_1",
        ]
        guard
            case .noChange = try await ledger.apply(
                Self.webhook(
                    stripeEvent("charge.refunded", id: "evt_p", created: "2025-09-01T00:00:00Z", object: partial)))
        else {
            Issue.record("a partial refund changed something")
            return
        }
        #expect(try await ledger.customers().isEmpty)
    }

    @Test func aMalformedObjectInASignedEventIsRefused() async throws {
        let ledger = Self.ledger()
        // Active without a period end: refused whole, as the adapter refuses it.
        let object = Self.owned(by: "alice", ["items": stripeList([subscriptionItem(periodEnd: nil)])])
        let event = stripeEvent("customer.subscription.updated", created: "2025-09-01T00:00:00Z", object: object)
        #expect(await refusal(Self.webhook(event), into: ledger)?.kind == .malformedBody)
        #expect(try await ledger.customers().isEmpty)
    }
}
