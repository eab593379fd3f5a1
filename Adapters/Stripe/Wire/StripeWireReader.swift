import EntitlementKit
import Foundation

// Reading Stripe's objects through `JSONNode`, so every refusal names its path and value.
//
// Strict wherever a value is read: every member read must have the JSON type Stripe's API gives it
// (timestamps as integers of seconds, lists as list objects with `has_more` false), and unknown members
// are ignored. Unknown `status`, `mode` and `payment_status` values are not errors: they grant nothing.

/// Reads one document into ``StripeObjects``.
struct StripeWireReader: Sendable {
    /// The metadata key that names the app user id (`app_user_id` by default).
    var appUserIdKey: String

    /// Every object `document`, of the given form, holds.
    func read(_ document: JSONNode, as form: StripeDocumentForm) throws(DocumentError) -> StripeObjects {
        var objects = StripeObjects()
        switch form {
        case .subscription:
            objects.subscriptions = [try subscription(document)]
        case .checkoutSession:
            objects.sessions = [try session(document)]
        case .list:
            var fetched = FetchedIds()
            for element in try document.stripeListData() {
                switch try element.required("object").string() {
                case "subscription":
                    let subscription = try subscription(element)
                    try fetched.insert(subscription.id, at: element)
                    objects.subscriptions.append(subscription)
                case "checkout.session":
                    let session = try session(element)
                    try fetched.insert(session.id, at: element)
                    objects.sessions.append(session)
                default:
                    let object = try element.required("object")
                    throw DocumentError(
                        kind: .unrecognizedFormat, path: object.path, offending: object.value,
                        reason: "is not read in a list: every element must be a subscription or a checkout.session")
                }
            }
        case .event:
            let event = try event(document)
            objects.newestEvent = event.created
            switch event.carried {
            case .subscription: objects.subscriptions = [try subscription(event.object)]
            case .checkoutSession: objects.sessions = [try session(event.object)]
            case .charge:
                throw DocumentError(
                    kind: .unrecognizedFormat, path: document.path.appending("type"), offending: .string(event.type),
                    reason:
                        "carries a Charge alone, which names no product: pass it with its checkout session in the combined object"
                )
            case .unread:
                throw DocumentError(
                    kind: .unrecognizedFormat, path: document.path.appending("type"), offending: .string(event.type),
                    reason: "is not an event type this adapter reads (customer.subscription.*, checkout.session.*)")
            }
        case .combined:
            objects = try combined(document)
        }
        return objects
    }

    /// `{"subscriptions", "checkoutSessions", "charges", "events"}`: fetched objects, then the objects of the
    /// events folded per object id by (`created`, rank, position).
    private func combined(_ document: JSONNode) throws(DocumentError) -> StripeObjects {
        var objects = StripeObjects()
        var fetched = FetchedIds()
        for element in try document.stripeContainer("subscriptions", of: "subscription") {
            let subscription = try subscription(element)
            try fetched.insert(subscription.id, at: element)
            objects.subscriptions.append(subscription)
        }
        for element in try document.stripeContainer("checkoutSessions", of: "checkout.session") {
            let session = try session(element)
            try fetched.insert(session.id, at: element)
            objects.sessions.append(session)
        }
        for element in try document.stripeContainer("charges", of: "charge") {
            objects.charges.append(try charge(element))
        }

        var subscriptionFold = EventFold<StripeSubscription>()
        var sessionFold = EventFold<StripeCheckoutSession>()
        for (position, element) in try document.stripeContainer("events", of: "event").enumerated() {
            let event = try event(element)
            switch event.carried {
            case .subscription:
                let subscription = try subscription(event.object)
                try fetched.refuseFetched(subscription.id, at: event.object)
                subscriptionFold.offer(subscription, id: subscription.id, event: event, position: position)
            case .checkoutSession:
                let session = try session(event.object)
                try fetched.refuseFetched(session.id, at: event.object)
                sessionFold.offer(session, id: session.id, event: event, position: position)
            case .charge:
                objects.charges.append(try charge(event.object))
            case .unread:
                continue
            }
            objects.newestEvent = max(objects.newestEvent ?? event.created, event.created)
        }
        objects.subscriptions += subscriptionFold.winners
        objects.sessions += sessionFold.winners
        return objects
    }

    // MARK: Objects

    /// A Subscription. One whose status grants access must state a period end for every item (the item's
    /// own, or the subscription's in API versions before 2025-03-31.basil).
    func subscription(_ node: JSONNode) throws(DocumentError) -> StripeSubscription {
        try node.expectObject("subscription")
        let id = try node.required("id").nonEmptyString()
        let statusText = try node.required("status").string()
        let status = StripeSubscriptionStatus(wire: statusText)
        let livemode = try node.required("livemode").bool()
        let created = try node.required("created").stripeTimestamp()
        let cancelAtPeriodEnd = try node.optional("cancel_at_period_end")?.bool() ?? false
        let cancellationReason = try node.optional("cancellation_details")?.optional("reason")?.identifier()
        let pause = try node.optional("pause_collection")
        if let pause { _ = try pause.members() }
        let items = try node.required("items").stripeListData().map { (item) throws(DocumentError) in
            try subscriptionItem(item)
        }
        let subscription = StripeSubscription(
            id: id, status: status, livemode: livemode, created: created,
            startDate: try node.timestamp("start_date"),
            currentPeriodStart: try node.timestamp("current_period_start"),
            currentPeriodEnd: try node.timestamp("current_period_end"),
            cancelAt: try node.timestamp("cancel_at"),
            canceledAt: try node.timestamp("canceled_at"),
            endedAt: try node.timestamp("ended_at"),
            trialStart: try node.timestamp("trial_start"),
            trialEnd: try node.timestamp("trial_end"),
            cancelAtPeriodEnd: cancelAtPeriodEnd,
            cancellationReason: cancellationReason,
            collectionPaused: pause != nil,
            customer: try node.optional("customer")?.stripeReference(),
            latestInvoice: try node.optional("latest_invoice")?.stripeReference(),
            appUserId: try metadataOffer(node),
            items: items)
        // In a status that grants access, the period end is what ends it: without one the item would read
        // as access forever.
        if status.grantsUntilExpiry {
            if let index = items.firstIndex(where: {
                $0.currentPeriodEnd == nil && subscription.currentPeriodEnd == nil
            }) {
                throw DocumentError(
                    kind: .missingField,
                    path: node.path.appending("items").appending("data").appending(index: index)
                        .appending("current_period_end"),
                    reason:
                        "is required (on the item, or on the subscription before API 2025-03-31.basil) while the subscription is \(statusText)"
                )
            }
            if items.isEmpty && subscription.currentPeriodEnd == nil {
                throw DocumentError(
                    kind: .missingField, path: node.path.appending("current_period_end"),
                    reason: "is required while the subscription is \(statusText)")
            }
        }
        return subscription
    }

    private func subscriptionItem(_ node: JSONNode) throws(DocumentError) -> StripeSubscriptionItem {
        StripeSubscriptionItem(
            price: try price(node.required("price")),
            currentPeriodStart: try node.timestamp("current_period_start"),
            currentPeriodEnd: try node.timestamp("current_period_end"))
    }

    private func price(_ node: JSONNode) throws(DocumentError) -> StripePrice {
        _ = try node.members()
        let id = try node.required("id").nonEmptyString()
        let lookupKey = try node.optional("lookup_key")?.identifier()
        let product = try node.required("product")
        let productId: String
        if product.kind == .object {
            productId = try product.required("id").nonEmptyString()
        } else {
            productId = try product.nonEmptyString()
        }
        return StripePrice(id: id, lookupKey: lookupKey, productId: productId)
    }

    /// A Checkout Session; in `payment` mode it must carry its `line_items` (expanded).
    func session(_ node: JSONNode) throws(DocumentError) -> StripeCheckoutSession {
        try node.expectObject("checkout.session")
        let id = try node.required("id").nonEmptyString()
        let livemode = try node.required("livemode").bool()
        let created = try node.required("created").stripeTimestamp()
        let mode = try node.required("mode").string()
        let status = try node.optional("status")?.string()
        let paymentStatus =
            mode == "payment"
            ? try node.required("payment_status").string() : try node.optional("payment_status")?.string()
        let clientReference = try node.optional("client_reference_id")?.identifier()
        var paymentIntentId: String?
        var latestCharge: StripeCharge?
        if let intent = try node.optional("payment_intent") {
            paymentIntentId = try intent.stripeReference()
            if intent.kind == .object, let charge = try intent.optional("latest_charge") {
                if charge.kind == .object {
                    latestCharge = try self.charge(charge)
                } else {
                    _ = try charge.string()
                }
            }
        }
        var lineItems: [StripePrice] = []
        if mode == "payment" {
            guard let list = try node.optional("line_items") else {
                throw DocumentError(
                    kind: .missingField, path: node.path.appending("line_items"),
                    reason:
                        "is required in payment mode: retrieve the session with expand[]=line_items (webhook payloads do not carry it)"
                )
            }
            lineItems = try list.stripeListData().map { (item) throws(DocumentError) in
                try price(item.required("price"))
            }
        }
        return StripeCheckoutSession(
            id: id, livemode: livemode, created: created, mode: mode, status: status, paymentStatus: paymentStatus,
            customer: try node.optional("customer")?.stripeReference(),
            appUserId: try metadataOffer(node) ?? clientReference,
            paymentIntentId: paymentIntentId, latestCharge: latestCharge, lineItems: lineItems)
    }

    /// A Charge: whether it is fully refunded, and when.
    func charge(_ node: JSONNode) throws(DocumentError) -> StripeCharge {
        try node.expectObject("charge")
        let id = try node.required("id").nonEmptyString()
        let refunded = try node.required("refunded").bool()
        _ = try node.optional("amount_refunded")?.integer()
        let refundDates = try node.optional("refunds")?.stripeListData().map { (refund) throws(DocumentError) in
            try refund.required("created").stripeTimestamp()
        }
        return StripeCharge(
            id: id, livemode: try node.optional("livemode")?.bool(), refunded: refunded,
            paymentIntentId: try node.optional("payment_intent")?.stripeReference(), refundDates: refundDates ?? [])
    }

    /// An Event's envelope. Its `type` decides the object it must carry, and the object's `livemode` must be
    /// the event's.
    func event(_ node: JSONNode) throws(DocumentError) -> StripeEvent {
        try node.expectObject("event")
        let id = try node.required("id").nonEmptyString()
        let type = try node.required("type").string()
        let created = try node.required("created").stripeTimestamp()
        let livemode = try node.required("livemode").bool()
        _ = try node.optional("api_version")?.string()
        let data = try node.required("data")
        if let previous = try data.optional("previous_attributes") { _ = try previous.members() }
        let object = try data.required("object")
        _ = try object.members()
        let event = StripeEvent(id: id, type: type, created: created, livemode: livemode, object: object)
        let expected: String
        switch event.carried {
        case .subscription: expected = "subscription"
        case .checkoutSession: expected = "checkout.session"
        case .charge: expected = "charge"
        case .unread: return event
        }
        let kind = try object.required("object")
        guard try kind.string() == expected else {
            throw DocumentError(
                kind: .inconsistent, path: kind.path, offending: kind.value,
                reason: "does not match the event type \(DocumentError.quoted(type)), which carries a \(expected)")
        }
        if let objectLivemode = try object.optional("livemode"), try objectLivemode.bool() != livemode {
            throw DocumentError(
                kind: .inconsistent, path: objectLivemode.path, offending: objectLivemode.value,
                reason: "differs from the event's livemode")
        }
        return event
    }

    /// `metadata[K]` when a non-empty string; `metadata` must be an object (or null), `metadata[K]` a string
    /// (or null).
    private func metadataOffer(_ node: JSONNode) throws(DocumentError) -> String? {
        guard let metadata = try node.optional("metadata") else { return nil }
        return try metadata.optional(appUserIdKey)?.identifier()
    }
}

/// The ids of the objects fetched (a list's `data`, the `subscriptions` and `checkoutSessions` containers):
/// each may appear once, and never again in `events` — which state is newer could not be known.
private struct FetchedIds {
    private var ids: Set<String> = []

    mutating func insert(_ id: String, at node: JSONNode) throws(DocumentError) {
        guard ids.insert(id).inserted else {
            let idNode = node.member("id") ?? node
            throw DocumentError(
                kind: .inconsistent, path: idNode.path, offending: idNode.value,
                reason: "appears twice among the fetched objects: which state is newer cannot be known")
        }
    }

    func refuseFetched(_ id: String, at node: JSONNode) throws(DocumentError) {
        guard ids.contains(id) else { return }
        let idNode = node.member("id") ?? node
        throw DocumentError(
            kind: .inconsistent, path: idNode.path, offending: idNode.value,
            reason: "is both a fetched object and in events: which state is newer cannot be known")
    }
}

/// Per object id, the object of the event greatest by (`created`, rank, position in `events`); the objects
/// in the order of their first event.
private struct EventFold<Object: Sendable> {
    private var order: [String] = []
    private var best: [String: (key: (Date, Int, Int), object: Object)] = [:]

    mutating func offer(_ object: Object, id: String, event: StripeEvent, position: Int) {
        let key = (event.created, event.rank, position)
        guard let current = best[id] else {
            order.append(id)
            best[id] = (key, object)
            return
        }
        if key > current.key { best[id] = (key, object) }
    }

    var winners: [Object] { order.compactMap { best[$0]?.object } }
}

extension JSONNode {
    /// A Stripe timestamp: a JSON integer of seconds since 1970 in 0 … 253402300799 (9999-12-31T23:59:59Z).
    /// A string, a fraction or a value out of range is refused: a value in the wrong unit must not become a
    /// date thousands of years away.
    func stripeTimestamp() throws(DocumentError) -> Date {
        switch value {
        case .integer(let seconds):
            guard seconds >= 0, let date = EpochTime.date(secondsSince1970: seconds) else {
                throw invalid("is not a count of seconds since 1970 between 0 and 253402300799 (9999-12-31T23:59:59Z)")
            }
            return date
        case .double:
            throw invalid("is not a whole number of seconds since 1970 (Stripe timestamps are integers)")
        default:
            throw typeMismatch("an integer count of seconds since 1970")
        }
    }

    /// The timestamp `key`; `null` or absent is "not set".
    fileprivate func timestamp(_ key: String) throws(DocumentError) -> Date? {
        try optional(key)?.stripeTimestamp()
    }

    /// The `data` of a Stripe list object (`{"object": "list", "data": [...], "has_more": false}`). A partial
    /// list is refused: a missing page could hold the object that decides access.
    func stripeListData() throws(DocumentError) -> [JSONNode] {
        guard kind == .object else { throw typeMismatch("a Stripe list object") }
        let object = try required("object")
        guard try object.string() == "list" else { throw object.invalid("must be \"list\"") }
        let data = try required("data").elements()
        let hasMore = try required("has_more")
        if try hasMore.bool() {
            throw hasMore.invalid("says the list is partial: fetch every page and pass them together")
        }
        return data
    }

    /// A container of the combined object: an array or a list object whose elements all have `object`
    /// `kind`; absent or `null` is empty.
    fileprivate func stripeContainer(_ key: String, of kind: String) throws(DocumentError) -> [JSONNode] {
        guard let container = try optional(key) else { return [] }
        let elements: [JSONNode]
        switch container.kind {
        case .array: elements = try container.elements()
        case .object: elements = try container.stripeListData()
        default: throw container.typeMismatch("an array or a Stripe list object")
        }
        for element in elements {
            _ = try element.members()
            _ = try element.required("object")
            try element.expectObject(kind)
        }
        return elements
    }

    /// This is an object whose `object`, when present, is `kind` (required in containers and lists, where
    /// the kind is what says the element is read).
    fileprivate func expectObject(_ kind: String) throws(DocumentError) {
        _ = try members()
        guard let object = try optional("object") else { return }
        guard try object.string() == kind else {
            throw DocumentError(
                kind: .unrecognizedFormat, path: object.path, offending: object.value,
                reason: "is not \(DocumentError.quoted(kind))")
        }
    }

    /// A string that names something and so must not be empty.
    fileprivate func nonEmptyString() throws(DocumentError) -> String {
        guard let text = try identifier() else { throw invalid("must not be empty") }
        return text
    }

    /// An expandable reference: an id string, or the expanded object's `id`.
    fileprivate func stripeReference() throws(DocumentError) -> String? {
        switch value {
        case .object: return try required("id").identifier()
        default: return try identifier()
        }
    }
}
