import EntitlementKit
import Foundation

extension EntitlementLedger {
    /// Gives the purchase `purchase` — its source and store id: an App Store `originalTransactionId`, a Play
    /// purchase token, a Stripe subscription or Checkout Session id — to the customer holding `appUserIds`,
    /// as an import asserts it (an administrative assertion, not a restore).
    ///
    /// The customer holding any of the ids gets the ids it lacks; when none holds them, a customer is
    /// created with all of them, the first its original (anonymous ids included). The first id is the
    /// customer's name in ``namedCustomers()``. The purchase gets a **purchase-id link**: a later
    /// notification or document about it goes to that customer though it names no account token, and a
    /// posting of it by anyone else is answered ``LedgerOutcome/receiptInUseByOtherUser(owner:)``.
    ///
    /// `document` (a statuses or history response, a JWS array, a Play `subscriptionsv2` / `products`
    /// response with its purchase token, a Stripe subscription or session) is read and verified as
    /// ``apply(_:)-(LedgerDocument)`` does, and **only its statements about `purchase`** are kept: Apple's
    /// responses answer for the whole Apple account, whose other purchases are neither assigned nor
    /// stored by it.
    ///
    /// ```swift
    /// let purchase = LedgerThreadID(source: .appStore, key: "2000000123")
    /// let outcome = try await ledger.assign(purchase, to: ["u123", anonymousId], document: history, receivedAt: .now)
    /// ```
    ///
    /// - Returns: ``LedgerOutcome/applied(customers:)`` naming the customer by the first id;
    ///   ``LedgerOutcome/noChange(reason:)`` when it was assigned so before (assigning again changes
    ///   nothing); ``LedgerOutcome/ownedByOther(owner:)`` when another customer owns the purchase (or an
    ///   import assigned it to another) — nothing changed.
    /// - Throws: ``LedgerRefusal``: ``LedgerRefusal/Kind/aliasConflict`` when two different customers hold
    ///   the ids; `invalidAppUserId`; the document's refusal (its signature, app, environment), or
    ///   `malformedBody` when it states nothing about `purchase`. Nothing is stored.
    public func assign(
        _ purchase: LedgerThreadID, to appUserIds: [String], document: LedgerDocument? = nil, receivedAt: Date
    ) async throws(LedgerRefusal) -> LedgerOutcome {
        let records = try document.map { document throws(LedgerRefusal) in try statements(about: purchase, in: document)
        }
        return try await assign([(purchase, records)], to: appUserIds, receivedAt: receivedAt)[0]
    }

    /// The statements `document` makes about `purchase`, read and verified; the rest of it is dropped.
    nonisolated func statements(about purchase: LedgerThreadID, in document: LedgerDocument) throws(LedgerRefusal)
        -> [LedgerRecord]
    {
        guard document.source == purchase.source else {
            throw LedgerRefusal(
                .malformedBody,
                "a \(document.source.rawValue) document cannot state anything about the \(purchase.source.rawValue) "
                    + "purchase \(DocumentError.quoted(purchase.key))")
        }
        guard document.appUserId == nil else {
            throw LedgerRefusal(
                .invalidAppUserId,
                "an assignment's document is applied for the purchase named, never posted as an app user id")
        }
        guard let source = sources[purchase.source] else {
            throw LedgerRefusal(
                .unknownSource, "no source \(DocumentError.quoted(purchase.source.rawValue)) is configured")
        }
        let reading = try source.read(document)
        guard case .records(let records) = reading.effect else {
            throw LedgerRefusal(.malformedBody, "the document states no purchase")
        }
        let about = records.filter { $0.thread == purchase.key || $0.threadAliases.contains(purchase.key) }
        guard !about.isEmpty else {
            throw LedgerRefusal(
                .malformedBody, "the document states nothing about the purchase \(DocumentError.quoted(purchase.key))")
        }
        // Only what is kept is judged: another purchase of the account may be from another environment.
        for environment in Set(about.compactMap(\.environment) + [reading.environment].compactMap { $0 })
        where !configuration.environments.contains(environment) {
            throw LedgerRefusal(
                .environment,
                "the input is from the \(environment.rawValue) environment, which this ledger does not accept")
        }
        return about
    }

    /// Assigns each purchase (with the statements read from its document, if any) to the customer holding
    /// `appUserIds`, in one transaction; with `digest`, marks that backfill plan line done in it too.
    func assign(
        _ purchases: [(LedgerThreadID, [LedgerRecord]?)], to appUserIds: [String], receivedAt: Date,
        markingDone digest: String? = nil
    ) async throws(LedgerRefusal) -> [LedgerOutcome] {
        for appUserId in appUserIds {
            if let refusal = AppUserIdCheck(appUserId).backendRefusal {
                throw LedgerRefusal(.invalidAppUserId, "app user id \(DocumentError.quoted(appUserId)) \(refusal)")
            }
        }
        guard let name = appUserIds.first else { throw LedgerRefusal(.invalidAppUserId, "no app user id is given") }
        let configuration = configuration
        let sources = sources
        return try await store.transaction { transaction throws(LedgerRefusal) in
            let rows = LedgerRows(transaction: transaction)
            var assigning = LedgerAssigning(
                identity: LedgerIdentity(rows: rows, configuration: configuration), sources: sources,
                receivedAt: receivedAt)
            // Owned by another customer: answered so, and nothing of it (the customer included) changes.
            let holder = try await assigning.holder(of: appUserIds)
            var outcomes: [LedgerOutcome?] = []
            for (purchase, records) in purchases {
                let owner = try await assigning.otherOwner(of: purchase, records: records, besides: holder)
                outcomes.append(owner.map { .ownedByOther(owner: $0) })
            }
            if purchases.isEmpty || outcomes.contains(nil) {
                let (customer, customerChanged) = try await assigning.customer(holding: appUserIds, holder: holder)
                for (index, (purchase, records)) in purchases.enumerated() where outcomes[index] == nil {
                    var outcome = try await assigning.assign(purchase, records: records, to: customer, name: name)
                    if customerChanged, case .noChange = outcome { outcome = .applied(customers: [name]) }
                    outcomes[index] = outcome
                }
            }
            if let digest { try await LedgerPurchaseLinks(rows: rows).markDone(digest) }
            return outcomes.compactMap { $0 }
        }
    }

    /// Whether a backfill finished the plan line whose digest is `digest`.
    func isBackfilled(_ digest: String) async throws(LedgerRefusal) -> Bool {
        try await store.transaction { transaction throws(LedgerRefusal) in
            try await LedgerPurchaseLinks(rows: LedgerRows(transaction: transaction)).isDone(digest)
        }
    }
}

/// An import's assignments within one transaction: the customer the plan names, and each purchase given
/// to it unless another customer owns it.
struct LedgerAssigning {
    var identity: LedgerIdentity
    let sources: [LedgerSourceID: any LedgerSource]
    let receivedAt: Date

    private var rows: LedgerRows { identity.rows }
    private var links: LedgerPurchaseLinks { LedgerPurchaseLinks(rows: identity.rows) }

    /// The one customer holding any of `appUserIds`, if one does.
    ///
    /// - Throws: ``LedgerRefusal/Kind/aliasConflict`` when two different customers hold them.
    func holder(of appUserIds: [String]) async throws(LedgerRefusal) -> LedgerCustomerID? {
        var holder: (id: LedgerCustomerID, appUserId: String)?
        for appUserId in appUserIds {
            guard let id = try await rows.customerID(forAppUserId: appUserId) else { continue }
            if let holder, holder.id != id {
                throw LedgerRefusal(
                    .aliasConflict,
                    "app user ids \(DocumentError.quoted(holder.appUserId)) and \(DocumentError.quoted(appUserId)) "
                        + "belong to two different customers")
            }
            holder = (id, appUserId)
        }
        return holder?.id
    }

    /// The customer `holder` (or a new one when `nil`) given those of `appUserIds` it lacks. Whether it
    /// changed.
    func customer(holding appUserIds: [String], holder: LedgerCustomerID?) async throws(LedgerRefusal)
        -> (LedgerCustomerID, changed: Bool)
    {
        var changed = false
        var customer: LedgerCustomer
        if let holder, let existing = try await rows.customer(holder) {
            customer = existing
        } else {
            customer = LedgerCustomer(id: try await rows.nextCustomerID(), appUserIds: [])
            changed = true
        }
        for appUserId in appUserIds
        where !customer.appUserIds.contains(where: { $0.utf8.elementsEqual(appUserId.utf8) }) {
            customer.appUserIds.append(appUserId)
            try await rows.setCustomerID(customer.id, forAppUserId: appUserId)
            changed = true
        }
        if customer.isPlaceholder {
            // The import vouches for the customer: a later link of its token no longer moves it.
            customer.placeholder = nil
            changed = true
        }
        if changed { try await rows.save(customer) }
        if let name = appUserIds.first, try await !links.isPlannedName(name) {
            try await links.markPlannedName(name)
            changed = true
        }
        return (customer.id, changed)
    }

    /// The name of the customer other than `customer` (any, when `nil`) that owns `purchase` — its thread,
    /// a thread its statements join, or its purchase-id link — if one does.
    func otherOwner(of purchase: LedgerThreadID, records: [LedgerRecord]?, besides customer: LedgerCustomerID?)
        async throws(LedgerRefusal) -> String?
    {
        var threads = [try await root(of: purchase)]
        for record in records ?? [] {
            for key in record.threadAliases {
                threads.append(try await root(of: LedgerThreadID(source: purchase.source, key: key)))
            }
        }
        for id in threads {
            if let owner = try await rows.head(id)?.owner.map(identity.current), owner != customer {
                return try await identity.name(of: owner) ?? ""
            }
        }
        if let linked = try await links.assignedAppUserId(of: purchase),
            let owner = try await rows.customerID(forAppUserId: linked).map(identity.current), owner != customer
        {
            return try await identity.name(of: owner) ?? linked
        }
        return nil
    }

    /// Gives `purchase` (and the thread its statements make) to `customer`, named `name`; no other customer
    /// owns it (``otherOwner(of:records:besides:)``).
    mutating func assign(
        _ purchase: LedgerThreadID, records: [LedgerRecord]?, to customer: LedgerCustomerID, name: String
    ) async throws(LedgerRefusal) -> LedgerOutcome {
        var changed = false
        if try await links.assignedAppUserId(of: purchase) == nil {
            try await links.link(purchase, to: name)
            changed = true
        }
        if var thread = try await rows.head(try await root(of: purchase)), thread.owner == nil {
            try await identity.assign(&thread, to: customer)
            changed = true
        }
        if let records, let source = sources[purchase.source] {
            var posting = LedgerPosting(identity: identity, source: source, sources: sources, receivedAt: receivedAt)
            if case .applied = try await posting.apply(records, postedAs: nil) { changed = true }
        }
        return changed
            ? .applied(customers: [name]) : .noChange(reason: "the purchase was assigned to the customer before")
    }

    /// The key of the thread `purchase` is kept in: its own, or the one its chain was folded into (bounded:
    /// a loop of aliases ends where it repeats).
    private func root(of purchase: LedgerThreadID) async throws(LedgerRefusal) -> LedgerThreadID {
        var key = purchase.key
        var seen: Set<String> = [key]
        for _ in 0..<1_000 {
            let id = LedgerThreadID(source: purchase.source, key: key)
            guard let next = try await rows.threadKey(aliasedBy: id), seen.insert(next).inserted else { break }
            key = next
        }
        return LedgerThreadID(source: purchase.source, key: key)
    }
}
