import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Stripe's records and their way back into the combined per-customer object the adapter maps.
///
/// Threads: a subscription id; a one-time purchase's session id, joined with its PaymentIntent id (an
/// alias) so that a refunded Charge — which names only the PaymentIntent — is kept with the session
/// whichever arrives first. Statements: `subscription`, `session`, and `charge <id>` per refunded charge.
/// Order: an event's (`created`, rank, event id bytes); a fetched object's (the instant received, in whole
/// seconds as Stripe's `created`, rank 1, its bytes).
struct StripeLedgerRecords {
    static let subscriptionStatement = "subscription"
    static let sessionStatement = "session"
    static let chargePrefix = "charge "

    /// The metadata key naming the app user id.
    let appUserIdKey: String

    private var reader: StripeWireReader { StripeWireReader(appUserIdKey: appUserIdKey) }

    // MARK: Reading

    /// What one Event states (a webhook body, or an event of a document).
    func effect(ofEvent node: JSONNode, isVerified: Bool) throws(DocumentError) -> LedgerReading.Effect {
        let event = try reader.event(node)
        let order = LedgerOrderKey([
            .number(Self.seconds(event.created)), .number(Int64(event.rank)), .bytes(Array(event.id.utf8)),
        ])
        // Written only for an event that keeps its object.
        func stamp() -> Stamp {
            Stamp(order: order, isVerified: isVerified, instant: event.created, body: event.object.compactTextBytes)
        }
        switch event.carried {
        case .subscription:
            return .records([try subscriptionRecord(event.object, stamp: stamp())])
        case .checkoutSession:
            let object = event.object
            let mode = try object.required(Field.mode).string()
            if mode == "payment", object.member(Field.lineItems) == nil {
                // Webhooks never carry line items (an includable field): the session must be fetched.
                let idNode = try object.required(Field.id)
                guard let id = try idNode.identifier() else { throw idNode.invalid("must not be empty") }
                _ = try object.required(Field.livemode).bool()
                _ = try object.required(Field.created).stripeTimestamp()
                switch event.type {
                case "checkout.session.completed", "checkout.session.async_payment_succeeded":
                    return .refreshNeeded(purchaseToken: id, productId: nil)
                default:
                    return .noChange(reason: "a \(event.type) event grants nothing")
                }
            }
            let session = try reader.session(object)
            guard session.isPayment else {
                return .noChange(
                    reason: "a \(mode)-mode Checkout Session grants nothing itself (its Subscription's events do)")
            }
            return .records([sessionRecord(session, stamp: stamp())])
        case .charge:
            let charge = try reader.charge(event.object)
            guard charge.refunded, let paymentIntent = charge.paymentIntentId else {
                return .noChange(
                    reason: "a charge that is not fully refunded, or names no PaymentIntent, changes no access")
            }
            return .records([
                chargeRecord(
                    charge, paymentIntent: paymentIntent, livemode: event.livemode, stamp: stamp())
            ])
        case .unread:
            return .noChange(reason: "a Stripe event of type \(DocumentError.quoted(event.type)) changes no access")
        }
    }

    /// The records of a document a server fetched or an app posted, already read whole by the adapter
    /// into `read` (a bare subscription's record takes what was read, not read again).
    func records(ofDocument root: JSONNode, form: StripeDocumentForm, read: StripeObjects, receivedAt: Date)
        throws(DocumentError) -> [LedgerRecord]
    {
        var records: [LedgerRecord] = []
        func fetched(_ node: JSONNode) -> Stamp {
            // The object's canonical text, written once: its bytes order it and are what is kept.
            let body = node.compactTextBytes
            return Stamp(
                order: LedgerOrderKey([.number(Self.seconds(receivedAt)), .number(1), .bytes(body)]),
                isVerified: false, instant: receivedAt, body: body)
        }
        func object(_ node: JSONNode) throws(DocumentError) {
            switch try node.required(Field.object).string() {
            case "subscription":
                records.append(try subscriptionRecord(node, stamp: fetched(node)))
            case "checkout.session":
                let session = try reader.session(node)
                if session.isPayment { records.append(sessionRecord(session, stamp: fetched(node))) }
            case "charge":
                let charge = try reader.charge(node)
                if charge.refunded, let paymentIntent = charge.paymentIntentId {
                    records.append(
                        chargeRecord(
                            charge, paymentIntent: paymentIntent, livemode: charge.livemode, stamp: fetched(node)))
                }
            default:
                break
            }
        }
        switch form {
        case .subscription where read.subscriptions.count == 1:
            records.append(subscriptionRecord(read.subscriptions[0], stamp: fetched(root)))
        case .subscription, .checkoutSession:
            try object(root)
        case .list:
            for element in try root.stripeListData() { try object(element) }
        case .event:
            if case .records(let read) = try effect(ofEvent: root, isVerified: false) { records += read }
        case .combined:
            for key in ["subscriptions", "checkoutSessions", "charges"] {
                guard let container = try root.optional(key) else { continue }
                let elements: [JSONNode]
                if container.kind == .object {
                    elements = try container.stripeListData()
                } else {
                    elements = try container.elements()
                }
                for element in elements { try object(element) }
            }
            if let events = try root.optional(Field.events) {
                let elements: [JSONNode]
                if events.kind == .object {
                    elements = try events.stripeListData()
                } else {
                    elements = try events.elements()
                }
                for element in elements {
                    if case .records(let read) = try effect(ofEvent: element, isVerified: false) { records += read }
                }
            }
        }
        return records
    }

    // MARK: Records

    /// Where a record stands and whether it was signed.
    private struct Stamp {
        var order: LedgerOrderKey
        var isVerified: Bool
        var instant: Date
        /// The object's canonical compact text (what the record keeps).
        var body: [UInt8]
    }

    private func subscriptionRecord(_ node: JSONNode, stamp: Stamp) throws(DocumentError) -> LedgerRecord {
        subscriptionRecord(try reader.subscription(node), stamp: stamp)
    }

    private func subscriptionRecord(_ subscription: StripeSubscription, stamp: Stamp) -> LedgerRecord {
        LedgerRecord(
            thread: subscription.id, statement: Self.subscriptionStatement, order: stamp.order,
            body: Data(stamp.body), isVerified: stamp.isVerified, instant: stamp.instant,
            environment: subscription.livemode ? .production : .sandbox,
            accountLinks: Self.links(customer: subscription.customer, appUserId: subscription.appUserId))
    }

    private func sessionRecord(_ session: StripeCheckoutSession, stamp: Stamp) -> LedgerRecord {
        LedgerRecord(
            thread: session.id, threadAliases: session.paymentIntentId.map { [$0] } ?? [],
            statement: Self.sessionStatement, order: stamp.order, body: Data(stamp.body),
            isVerified: stamp.isVerified, instant: stamp.instant,
            environment: session.livemode ? .production : .sandbox,
            accountLinks: Self.links(customer: session.customer, appUserId: session.appUserId))
    }

    private func chargeRecord(
        _ charge: StripeCharge, paymentIntent: String, livemode: Bool?, stamp: Stamp
    ) -> LedgerRecord {
        LedgerRecord(
            thread: paymentIntent, statement: Self.chargePrefix + charge.id, order: stamp.order,
            body: Data(stamp.body), isVerified: stamp.isVerified, instant: stamp.instant,
            environment: livemode.map { $0 ? .production : .sandbox })
    }

    /// A registered customer id first, then the app user id the object names (metadata, else a session's
    /// `client_reference_id`). A customer id is never taken as an app user id itself.
    private static func links(customer: String?, appUserId: String?) -> [LedgerAccountLink] {
        var links: [LedgerAccountLink] = []
        if let customer {
            links.append(LedgerAccountLink(key: LedgerAccountKey(.stripeCustomer, customer), appUserId: nil))
        }
        if let appUserId { links.append(LedgerAccountLink(key: nil, appUserId: appUserId)) }
        return links
    }

    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    // MARK: Back to a document

    /// The combined per-customer object of `records`, in their order.
    static func combinedDocument(of records: [LedgerRecord]) throws(DocumentError) -> JSONNode {
        var combined = JSONArraysText(keys: ["charges", "checkoutSessions", "subscriptions"])
        for record in records {
            if record.statement == subscriptionStatement {
                try combined.append(record.body, to: 2)
            } else if record.statement == sessionStatement {
                try combined.append(record.body, to: 1)
            } else if record.statement.hasPrefix(chargePrefix) {
                try combined.append(record.body, to: 0)
            }
        }
        return try combined.document()
    }
}
