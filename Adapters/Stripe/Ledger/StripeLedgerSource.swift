import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Stripe as a source of an ``EntitlementLedger``: signed webhooks and Stripe's objects (a Subscription, a
/// list, a Checkout Session retrieved with its line items, an Event, the combined per-customer object) read
/// into records, and a customer's records mapped by ``StripeAdapter``'s own mapping.
///
/// ```swift
/// let stripe = StripeLedgerSource(catalog: catalog, webhookSecrets: [endpointSecret])
/// let ledger = EntitlementLedger(sources: [appStore, stripe])
/// let outcome = try await ledger.apply(
///     LedgerNotification(
///         source: .stripe, body: requestBody, headers: ["Stripe-Signature": signature], receivedAt: .now))
/// ```
///
/// A webhook is verified with ``StripeWebhookVerifier`` at the instant it was received; a failure is a
/// `signature` refusal (`timestamp` for a stale or future timestamp) and stores nothing. Then:
/// - `customer.subscription.*` keeps the subscription: per subscription id, the object of the event greatest
///   by (`created`, rank, event id bytes) — rank 0 for a creation, 2 for a deletion, 1 otherwise — so any
///   arrival order gives one answer;
/// - `checkout.session.completed` / `async_payment_succeeded` in payment mode carry no line items: the
///   outcome is ``LedgerOutcome/refreshNeeded(purchaseToken:productId:)`` for the session id until the server
///   applies the session retrieved with `expand[]=line_items`;
/// - `charge.*` with a fully refunded charge (`charge.refunded`) is kept with the session of its
///   PaymentIntent and revokes it;
/// - every other event type changes nothing.
///
/// A fetched object counts as created at the instant it was received. Purchases link to customers by a
/// registered Stripe customer id, then `metadata[key]`, then a session's `client_reference_id`.
public struct StripeLedgerSource: LedgerSource {
    /// How objects map: the catalog and the metadata key naming the app user id.
    public var configuration: StripeAdapter.Configuration
    /// The webhook check.
    public var verifier: StripeWebhookVerifier

    /// A source mapping with `catalog`, accepting webhooks signed with any of `webhookSecrets` within
    /// `tolerance` seconds of the instant received, reading the app user id from `metadata[appUserIdMetadataKey]`.
    public init(
        catalog: EntitlementCatalog = .identity, webhookSecrets: [String],
        tolerance: Int = StripeWebhookVerifier.defaultTolerance, appUserIdMetadataKey: String = "app_user_id"
    ) {
        configuration = StripeAdapter.Configuration(catalog: catalog, appUserIdMetadataKey: appUserIdMetadataKey)
        verifier = StripeWebhookVerifier(secrets: webhookSecrets, tolerance: tolerance)
    }

    /// `stripe`.
    public var id: LedgerSourceID { .stripe }

    public func read(_ notification: LedgerNotification) throws(LedgerRefusal) -> LedgerReading {
        let event: StripeVerifiedEvent
        do {
            event = try verifier.verify(
                payload: Array(notification.body), signatureHeader: notification.header("Stripe-Signature"),
                at: notification.receivedAt)
        } catch {
            switch error {
            case .notAnEvent(let documentError):
                throw LedgerRefusal(.malformedBody, error.description, documentError: documentError)
            case .staleTimestamp, .futureTimestamp:
                throw LedgerRefusal(.timestamp, error.description)
            default:
                throw LedgerRefusal(.signature, error.description)
            }
        }
        let effect = try Self.refusingMalformed { () throws(DocumentError) -> LedgerReading.Effect in
            try StripeLedgerRecords(appUserIdKey: configuration.appUserIdMetadataKey).effect(
                ofEvent: event.document, isVerified: true)
        }
        return LedgerReading(
            notificationId: event.id, environment: event.livemode ? .production : .sandbox, effect: effect)
    }

    public func read(_ document: LedgerDocument) throws(LedgerRefusal) -> LedgerReading {
        let records = try Self.refusingMalformed { () throws(DocumentError) -> [LedgerRecord] in
            let root = try JSONNode(parsing: document.body)
            let form = try StripeDocumentForm.assumed(root)
            // Read whole first, as the adapter reads it: a document the adapter refuses stores nothing.
            let objects = try StripeAdapter(configuration: configuration).objects(in: root, form: form)
            return try StripeLedgerRecords(appUserIdKey: configuration.appUserIdMetadataKey).records(
                ofDocument: root, form: form, read: objects, receivedAt: document.receivedAt)
        }
        // What is kept must map again when a snapshot is asked: checked now, not then.
        _ = try snapshot(ofRecords: records, at: document.receivedAt, failure: .malformedBody)
        return LedgerReading(notificationId: nil, environment: nil, effect: .records(records))
    }

    public func snapshot(of threads: [LedgerThread], at instant: Date) throws(LedgerRefusal) -> EntitlementSnapshot {
        let records = threads.sorted { $0.id < $1.id }.flatMap(\.records)
        return try snapshot(ofRecords: records, at: instant, failure: .storage)
    }

    /// The adapter's snapshot of `records` read back as one combined per-customer object.
    private func snapshot(ofRecords records: [LedgerRecord], at instant: Date, failure: LedgerRefusal.Kind)
        throws(LedgerRefusal) -> EntitlementSnapshot
    {
        do {
            let adapter = StripeAdapter(configuration: configuration)
            let objects: StripeObjects
            if records.count == 1, records[0].statement == StripeLedgerRecords.subscriptionStatement {
                // One subscription (a purchase's usual thread): read alone, as the combined object's only
                // element is read — the same checks, without writing and parsing the object around it.
                let subscription = try JSONNode(parsing: records[0].body)
                _ = try subscription.required(Field.object)
                objects = try adapter.objects(in: subscription, form: .subscription)
            } else {
                // The combined object, read as such: what `snapshot(from:)` would tell from its keys.
                objects = try adapter.objects(in: StripeLedgerRecords.combinedDocument(of: records), form: .combined)
            }
            return objects.snapshot(
                provider: .stripe, catalog: configuration.catalog, verification: .notRequested, at: instant)
        } catch {
            throw LedgerRefusal(failure, "kept Stripe records do not map: \(error)", documentError: error)
        }
    }

    private static func refusingMalformed<T>(_ body: () throws(DocumentError) -> T) throws(LedgerRefusal) -> T {
        do {
            return try body()
        } catch {
            throw LedgerRefusal(.malformedBody, error.description, documentError: error)
        }
    }
}
