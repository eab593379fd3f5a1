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
        let records = try document.map { document throws(LedgerRefusal) in try statements(about: purchase, in: document) }
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
            throw LedgerRefusal(.unknownSource, "no source \(DocumentError.quoted(purchase.source.rawValue)) is configured")
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
            let (customer, customerChanged) = try await assigning.customer(holding: appUserIds)
            var outcomes: [LedgerOutcome] = []
            for (purchase, records) in purchases {
                var outcome = try await assigning.assign(purchase, records: records, to: customer, name: name)
                if customerChanged, case .noChange = outcome { outcome = .applied(customers: [name]) }
                outcomes.append(outcome)
            }
            if let digest { try await LedgerPurchaseLinks(rows: rows).markDone(digest) }
            return outcomes
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

    /// The one customer holding any of `appUserIds`, given those it lacks; created with all of them when
    /// none holds one. Whether it changed.
    func customer(holding appUserIds: [String]) async throws(LedgerRefusal) -> (LedgerCustomerID, changed: Bool) {
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
        var changed = false
        var customer: LedgerCustomer
        if let holder, let existing = try await rows.customer(holder.id) {
            customer = existing
        } else {
            customer = LedgerCustomer(id: try await rows.nextCustomerID(), appUserIds: [])
            changed = true
        }
        for appUserId in appUserIds where !customer.appUserIds.contains(where: { $0.utf8.elementsEqual(appUserId.utf8) }) {
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

    /// Gives `purchase` (and the thread its statements make) to `customer`, named `name`.
    mutating func assign(
        _ purchase: LedgerThreadID, records: [LedgerRecord]?, to customer: LedgerCustomerID, name: String
    ) async throws(LedgerRefusal) -> LedgerOutcome {
        var kept = try await rows.thread(try await root(of: purchase))
        var threads = kept.map { [$0] } ?? []
        for record in records ?? [] {
            for key in record.threadAliases {
                let alias = LedgerThreadID(source: purchase.source, key: key)
                if let thread = try await rows.thread(try await root(of: alias)) { threads.append(thread) }
            }
        }
        for thread in threads {
            if let owner = thread.owner.map(identity.current), owner != customer {
                return .ownedByOther(owner: try await identity.name(of: owner) ?? "")
            }
        }
        var changed = false
        if let linked = try await links.assignedAppUserId(of: purchase) {
            if let owner = try await rows.customerID(forAppUserId: linked).map(identity.current), owner != customer {
                return .ownedByOther(owner: try await identity.name(of: owner) ?? linked)
            }
        } else {
            try await links.link(purchase, to: name)
            changed = true
        }
        if var thread = kept, thread.owner == nil {
            try await identity.assign(&thread, to: customer)
            kept = thread
            changed = true
        }
        if let records, let source = sources[purchase.source] {
            var posting = LedgerPosting(identity: identity, source: source, sources: sources, receivedAt: receivedAt)
            if case .applied = try await posting.apply(records, postedAs: nil) { changed = true }
        }
        return changed ? .applied(customers: [name]) : .noChange(reason: "the purchase was assigned to the customer before")
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
