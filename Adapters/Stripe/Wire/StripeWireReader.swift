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
                switch try element.required(Field.object).string() {
                case "subscription":
                    let subscription = try subscription(element)
                    try fetched.insert(subscription.id, at: element)
                    objects.subscriptions.append(subscription)
                case "checkout.session":
                    let session = try session(element)
                    try fetched.insert(session.id, at: element)
                    objects.sessions.append(session)
                default:
                    let object = try element.required(Field.object)
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
            case .charge, .unread:
                throw DocumentError(
                    kind: .unrecognizedFormat, path: document.path.appending(Field.type),
                    offending: .string(event.type),
                    reason: event.carried == .charge
                        ? "carries a Charge alone, which names no product: pass it with its checkout session in the combined object"
                        : "is not an event type this adapter reads (customer.subscription.*, checkout.session.*)")
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
        for element in try document.stripeContainer(Field.subscriptions, of: "subscription") {
            let subscription = try subscription(element)
            try fetched.insert(subscription.id, at: element)
            objects.subscriptions.append(subscription)
        }
        for element in try document.stripeContainer(Field.checkoutSessions, of: "checkout.session") {
            let session = try session(element)
            try fetched.insert(session.id, at: element)
            objects.sessions.append(session)
        }
        for element in try document.stripeContainer(Field.charges, of: "charge") {
            objects.charges.append(try charge(element))
        }

        var subscriptionFold = EventFold<StripeSubscription>()
        var sessionFold = EventFold<StripeCheckoutSession>()
        for (position, element) in try document.stripeContainer(Field.events, of: "event").enumerated() {
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
        let id = try node.required(Field.id).nonEmptyString()
        let statusText = try node.required(Field.status).string()
        let status = StripeSubscriptionStatus(wire: statusText)
        let livemode = try node.required(Field.livemode).bool()
        let created = try node.required(Field.created).stripeTimestamp()
        let cancelAtPeriodEnd = try node.optional(Field.cancelAtPeriodEnd)?.bool() ?? false
        let cancellationReason = try node.optional(Field.cancellationDetails)?.optional(Field.reason)?.identifier()
        let pause = try node.optional(Field.pauseCollection)
        if let pause { _ = try pause.members() }
        let items = try node.required(Field.items).stripeListData().map { (item) throws(DocumentError) in
            try subscriptionItem(item)
        }
        let subscription = StripeSubscription(
            id: id, status: status, livemode: livemode, created: created,
            startDate: try node.timestamp(Field.startDate),
            currentPeriodStart: try node.timestamp(Field.currentPeriodStart),
            currentPeriodEnd: try node.timestamp(Field.currentPeriodEnd),
            cancelAt: try node.timestamp(Field.cancelAt),
            canceledAt: try node.timestamp(Field.canceledAt),
            endedAt: try node.timestamp(Field.endedAt),
            trialStart: try node.timestamp(Field.trialStart),
            trialEnd: try node.timestamp(Field.trialEnd),
            cancelAtPeriodEnd: cancelAtPeriodEnd,
            cancellationReason: cancellationReason,
            collectionPaused: pause != nil,
            customer: try node.optional(Field.customer)?.stripeReference(),
            latestInvoice: try node.optional(Field.latestInvoice)?.stripeReference(),
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
                    path: node.path.appending(Field.items).appending(Field.data).appending(index: index)
                        .appending(Field.currentPeriodEnd),
                    reason:
                        "is required (on the item, or on the subscription before API 2025-03-31.basil) while the subscription is \(statusText)"
                )
            }
            if items.isEmpty && subscription.currentPeriodEnd == nil {
                throw DocumentError(
                    kind: .missingField, path: node.path.appending(Field.currentPeriodEnd),
                    reason: "is required while the subscription is \(statusText)")
            }
        }
        return subscription
    }

    private func subscriptionItem(_ node: JSONNode) throws(DocumentError) -> StripeSubscriptionItem {
        StripeSubscriptionItem(
            price: try price(node.required(Field.price)),
            currentPeriodStart: try node.timestamp(Field.currentPeriodStart),
            currentPeriodEnd: try node.timestamp(Field.currentPeriodEnd))
    }

    private func price(_ node: JSONNode) throws(DocumentError) -> StripePrice {
        _ = try node.members()
        let id = try node.required(Field.id).nonEmptyString()
        let lookupKey = try node.optional(Field.lookupKey)?.identifier()
        let product = try node.required(Field.product)
        let productId: String
        if product.kind == .object {
            productId = try product.required(Field.id).nonEmptyString()
        } else {
            productId = try product.nonEmptyString()
        }
        return StripePrice(id: id, lookupKey: lookupKey, productId: productId)
    }

    /// A Checkout Session; in `payment` mode it must carry its `line_items` (expanded).
    func session(_ node: JSONNode) throws(DocumentError) -> StripeCheckoutSession {
        try node.expectObject("checkout.session")
        let id = try node.required(Field.id).nonEmptyString()
        let livemode = try node.required(Field.livemode).bool()
        let created = try node.required(Field.created).stripeTimestamp()
        let mode = try node.required(Field.mode).string()
        let status = try node.optional(Field.status)?.string()
        let paymentStatus =
            mode == "payment"
            ? try node.required(Field.paymentStatus).string() : try node.optional(Field.paymentStatus)?.string()
        let clientReference = try node.optional(Field.clientReferenceId)?.identifier()
        var paymentIntentId: String?
        var latestCharge: StripeCharge?
        if let intent = try node.optional(Field.paymentIntent) {
            paymentIntentId = try intent.stripeReference()
            if intent.kind == .object, let charge = try intent.optional(Field.latestCharge) {
                if charge.kind == .object {
                    latestCharge = try self.charge(charge)
                } else {
                    _ = try charge.string()
                }
            }
        }
        var lineItems: [StripePrice] = []
        if mode == "payment" {
            guard let list = try node.optional(Field.lineItems) else {
                throw DocumentError(
                    kind: .missingField, path: node.path.appending(Field.lineItems),
                    reason:
                        "is required in payment mode: retrieve the session with expand[]=line_items (webhook payloads do not carry it)"
                )
            }
            lineItems = try list.stripeListData().map { (item) throws(DocumentError) in
                try price(item.required(Field.price))
            }
        }
        return StripeCheckoutSession(
            id: id, livemode: livemode, created: created, mode: mode, status: status, paymentStatus: paymentStatus,
            customer: try node.optional(Field.customer)?.stripeReference(),
            appUserId: try metadataOffer(node) ?? clientReference,
            paymentIntentId: paymentIntentId, latestCharge: latestCharge, lineItems: lineItems)
    }

    /// A Charge: whether it is fully refunded, and when.
    func charge(_ node: JSONNode) throws(DocumentError) -> StripeCharge {
        try node.expectObject("charge")
        let id = try node.required(Field.id).nonEmptyString()
        let refunded = try node.required(Field.refunded).bool()
        _ = try node.optional(Field.amountRefunded)?.integer()
        let refundDates = try node.optional(Field.refunds)?.stripeListData().map { (refund) throws(DocumentError) in
            try refund.required(Field.created).stripeTimestamp()
        }
        return StripeCharge(
            id: id, livemode: try node.optional(Field.livemode)?.bool(), refunded: refunded,
            paymentIntentId: try node.optional(Field.paymentIntent)?.stripeReference(), refundDates: refundDates ?? [])
    }

    /// An Event's envelope. Its `type` decides the object it must carry, and the object's `livemode` must be
    /// the event's.
    func event(_ node: JSONNode) throws(DocumentError) -> StripeEvent {
        try node.expectObject("event")
        let id = try node.required(Field.id).nonEmptyString()
        let type = try node.required(Field.type).string()
        let created = try node.required(Field.created).stripeTimestamp()
        let livemode = try node.required(Field.livemode).bool()
        _ = try node.optional(Field.apiVersion)?.string()
        let data = try node.required(Field.data)
        if let previous = try data.optional(Field.previousAttributes) { _ = try previous.members() }
        let object = try data.required(Field.object)
        _ = try object.members()
        let event = StripeEvent(id: id, type: type, created: created, livemode: livemode, object: object)
        let expected: String
        switch event.carried {
        case .subscription: expected = "subscription"
        case .checkoutSession: expected = "checkout.session"
        case .charge: expected = "charge"
        case .unread: return event
        }
        let kind = try object.required(Field.object)
        guard try kind.string() == expected else {
            throw DocumentError(
                kind: .inconsistent, path: kind.path, offending: kind.value,
                reason: "does not match the event type \(DocumentError.quoted(type)), which carries a \(expected)")
        }
        if let objectLivemode = try object.optional(Field.livemode), try objectLivemode.bool() != livemode {
            throw DocumentError(
                kind: .inconsistent, path: objectLivemode.path, offending: objectLivemode.value,
                reason: "differs from the event's livemode")
        }
        return event
    }

    /// `metadata[K]` when a non-empty string; `metadata` must be an object (or null), `metadata[K]` a string
    /// (or null).
    private func metadataOffer(_ node: JSONNode) throws(DocumentError) -> String? {
        guard let metadata = try node.optional(Field.metadata) else { return nil }
        return try metadata.optional(appUserIdKey)?.identifier()
    }
}

/// The ids of the objects fetched (a list's `data`, the `subscriptions` and `checkoutSessions` containers):
/// each may appear once, and never again in `events` — which state is newer could not be known.
private struct FetchedIds {
    private var ids: Set<String> = []

    mutating func insert(_ id: String, at node: JSONNode) throws(DocumentError) {
        guard ids.insert(id).inserted else {
            let idNode = node.member(Field.id) ?? node
            throw DocumentError(
                kind: .inconsistent, path: idNode.path, offending: idNode.value,
                reason: "appears twice among the fetched objects: which state is newer cannot be known")
        }
    }

    func refuseFetched(_ id: String, at node: JSONNode) throws(DocumentError) {
        guard ids.contains(id) else { return }
        let idNode = node.member(Field.id) ?? node
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
        let object = try required(Field.object)
        guard try object.string() == "list" else { throw object.invalid("must be \"list\"") }
        let data = try required(Field.data).elements()
        let hasMore = try required(Field.hasMore)
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
            _ = try element.required(Field.object)
            try element.expectObject(kind)
        }
        return elements
    }

    /// This is an object whose `object`, when present, is `kind` (required in containers and lists, where
    /// the kind is what says the element is read).
    fileprivate func expectObject(_ kind: String) throws(DocumentError) {
        _ = try members()
        guard let object = try optional(Field.object) else { return }
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
        case .object: return try required(Field.id).identifier()
        default: return try identifier()
        }
    }
}
