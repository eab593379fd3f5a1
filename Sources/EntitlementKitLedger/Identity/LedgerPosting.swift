import EntitlementKit
import Foundation

/// Applies the records of one input: each kept in its thread when newer than the thread's record of the
/// same statement, then each thread's owner settled — by posting (the input came for an app user id) or
/// by the records' account links.
struct LedgerPosting {
    var identity: LedgerIdentity
    let source: any LedgerSource
    let receivedAt: Date

    private var rows: LedgerRows { identity.rows }

    mutating func apply(_ records: [LedgerRecord], postedAs appUserId: String?) async throws(LedgerRefusal)
        -> LedgerOutcome
    {
        var threads: [String: LedgerThread] = [:]
        var before: [String: LedgerThread] = [:]
        var changed: Set<String> = []
        for record in records {
            let key = try await threadKey(of: record)
            if threads[key] == nil {
                let id = LedgerThreadID(source: source.id, key: key)
                let stored = try await rows.thread(id) ?? LedgerThread(id: id)
                threads[key] = stored
                before[key] = stored
            }
            if threads[key]?.keep(record) == true { changed.insert(key) }
        }
        for key in changed { if let thread = threads[key] { try await rows.save(thread) } }

        var touched: Set<LedgerCustomerID> = []
        var inUseBy: LedgerCustomerID?
        var unlinked: LedgerThreadID?
        let keys = threads.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let appUserId {
            // The document is the poster's receipt: the rules decide once per customer that owns part of
            // it (was any of its purchases here an active subscription before this input?), and purchases
            // no one owned yet follow the receipt — to the poster, or to the owner it stays with.
            var poster = try await identity.customer(for: appUserId).id
            var ownedBy: [LedgerCustomerID: [String]] = [:]
            var unowned: [String] = []
            for key in keys {
                guard let thread = threads[key] else { continue }
                if let id = thread.owner, try await rows.customer(identity.current(id)) != nil {
                    ownedBy[identity.current(id), default: []].append(key)
                } else {
                    unowned.append(key)
                }
            }
            var keeper: LedgerCustomerID?
            for ownerID in ownedBy.keys.sorted() {
                let ownerKeys = ownedBy[ownerID] ?? []
                guard let owner = try await rows.customer(identity.current(ownerID)) else { continue }
                guard owner.id != poster else {
                    unowned += ownerKeys
                    continue
                }
                let heldActiveSubscription = ownerKeys.contains { key in
                    before[key].map { source.holdsActiveSubscription($0, at: receivedAt) } ?? false
                }
                let decision = IdentityRules.posting(
                    owner: identity.isAnonymous(owner) ? .anonymous : .identified,
                    behavior: identity.configuration.restoreBehavior,
                    heldActiveSubscription: heldActiveSubscription)
                switch decision {
                case .keep, .transfer:
                    for key in ownerKeys {
                        guard var thread = threads[key] else { continue }
                        try await identity.assign(&thread, to: poster)
                    }
                    touched.formUnion([poster, owner.id])
                case .merge:
                    poster = try await identity.merge(poster, owner.id)
                    touched.insert(poster)
                case .receiptInUseByOtherUser:
                    inUseBy = inUseBy ?? owner.id
                    keeper = keeper ?? owner.id
                    if ownerKeys.contains(where: changed.contains) { touched.insert(owner.id) }
                }
            }
            let receiver = keeper.map(identity.current) ?? identity.current(poster)
            for key in unowned.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                guard var thread = threads[key] else { continue }
                if thread.owner.map(identity.current) != receiver || changed.contains(key) { touched.insert(receiver) }
                try await identity.assign(&thread, to: receiver)
            }
        } else {
            for key in keys {
                guard var thread = threads[key] else { continue }
                if let owner = thread.owner {
                    if changed.contains(key) { touched.insert(identity.current(owner)) }
                    continue
                }
                if let customer = try await linkedCustomer(of: thread) {
                    try await identity.assign(&thread, to: customer)
                    touched.insert(customer)
                } else if changed.contains(key) {
                    try await index(unlinked: thread)
                    unlinked = unlinked ?? thread.id
                }
            }
        }

        if let inUseBy, let name = try await identity.name(of: inUseBy) {
            return .receiptInUseByOtherUser(owner: name)
        }
        var names: [String] = []
        for customer in Set(touched.map(identity.current)) {
            if let name = try await identity.name(of: customer) { names.append(name) }
        }
        if !names.isEmpty { return .applied(customers: names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }) }
        if let unlinked { return .unlinked(thread: unlinked) }
        return .noChange(reason: "every statement is older than, or the same as, the one kept")
    }

    /// The key of the thread `record` belongs to: its own, or the thread one of its aliases already
    /// names (a chained Play token joins the thread of the first token).
    private func threadKey(of record: LedgerRecord) async throws(LedgerRefusal) -> String {
        let own = LedgerThreadID(source: source.id, key: record.thread)
        if let folded = try await rows.threadKey(aliasedBy: own) { return folded }
        if try await rows.thread(own) != nil { return record.thread }
        for alias in record.threadAliases {
            let aliasID = LedgerThreadID(source: source.id, key: alias)
            let key = try await rows.threadKey(aliasedBy: aliasID) ?? alias
            try await rows.setThreadKey(key, aliasedBy: own)
            return key
        }
        return record.thread
    }

    /// The customer the thread's account links name: a registered account id, else the id the link
    /// stands for (created when no one has it yet); `nil` when no link names anyone.
    private func linkedCustomer(of thread: LedgerThread) async throws(LedgerRefusal) -> LedgerCustomerID? {
        for link in thread.accountLinks {
            if let key = link.key, let registered = try await rows.registeredAppUserId(for: key) {
                return try await identity.customer(for: registered).id
            }
            guard let appUserId = link.appUserId, AppUserIdCheck(appUserId).backendRefusal == nil else { continue }
            if link.key?.kind == .appAccountToken {
                // An account token is a UUID: it matches an app user id that is the same UUID in any case.
                for spelling in [appUserId, appUserId.lowercased(), appUserId.uppercased()] {
                    if let customer = try await identity.existingCustomer(for: spelling) { return customer.id }
                }
            }
            return try await identity.customer(for: appUserId).id
        }
        return nil
    }

    /// Remembers an unlinked thread under each account id its records carry, for a later `link`.
    private func index(unlinked thread: LedgerThread) async throws(LedgerRefusal) {
        for key in Set(thread.accountLinks.compactMap(\.key)) {
            var waiting = try await rows.unlinkedThreads(for: key)
            guard !waiting.contains(thread.id) else { continue }
            waiting.append(thread.id)
            try await rows.setUnlinkedThreads(waiting, for: key)
        }
    }
}
