import EntitlementKit
import Foundation

/// Applies the records of one input: each kept in its thread when newer than the thread's record of the
/// same statement, then each thread's owner settled — by posting (the input came for an app user id) or
/// by the records' account links.
struct LedgerPosting {
    var identity: LedgerIdentity
    let source: any LedgerSource
    /// Every source of the ledger: an owner's purchases in other stores count for
    /// `transferIfNoActiveSubscriptions`.
    let sources: [LedgerSourceID: any LedgerSource]
    let receivedAt: Date

    /// The heads of the threads this input touches, by key.
    private var heads: [String: LedgerThreadHead] = [:]
    /// Per thread touched, each statement's record before this input (`nil`: the thread did not hold
    /// the statement): the thread as it was, for `transferIfNoActiveSubscriptions`.
    private var replaced: [String: [String: LedgerRecord?]] = [:]
    private var changed: Set<String> = []
    /// Import hook: per thread touched, the app user id an import assigned a store id of its records to.
    private var assigned: [String: String] = [:]

    init(
        identity: LedgerIdentity, source: any LedgerSource, sources: [LedgerSourceID: any LedgerSource],
        receivedAt: Date
    ) {
        self.identity = identity
        self.source = source
        self.sources = sources
        self.receivedAt = receivedAt
    }

    private var rows: LedgerRows { identity.rows }

    private func id(_ key: String) -> LedgerThreadID { LedgerThreadID(source: source.id, key: key) }

    private mutating func load(_ key: String) async throws(LedgerRefusal) {
        guard heads[key] == nil else { return }
        heads[key] = try await rows.head(id(key)) ?? LedgerThreadHead(id: id(key))
        replaced[key] = replaced[key] ?? [:]
    }

    /// Keeps `record` in the thread `key` (loaded) when it is newer than the kept record of its statement
    /// (or the first of it): one statement row read, and written when kept; whether the thread changed.
    private mutating func keep(_ record: LedgerRecord, in key: String) async throws(LedgerRefusal) -> Bool {
        guard var head = heads[key] else { return false }
        let kept = try await rows.record(record.statement, of: head.id)
        if let kept, !(kept.order < record.order) { return false }
        if replaced[key, default: [:]].index(forKey: record.statement) == nil {
            replaced[key, default: [:]][record.statement] = .some(kept)
        }
        try await rows.setRecord(record, of: head.id)
        if kept == nil { head.addStatement(record.statement) }
        if !head.noteLinks(of: record, replacing: kept) {
            head.rebuildLeads(from: try await rows.thread(of: head).records)
        }
        heads[key] = head
        return true
    }

    mutating func apply(_ records: [LedgerRecord], postedAs appUserId: String?) async throws(LedgerRefusal)
        -> LedgerOutcome
    {
        for record in records {
            let key = try await threadKey(of: record)
            try await load(key)
            if try await keep(record, in: key) { changed.insert(key) }
            // Import hook: a purchase-id link of any store id the record names follows it into its thread.
            if assigned[key] == nil {
                assigned[key] = try await LedgerPurchaseLinks(rows: rows).assignedAppUserId(of: record, in: source.id)
            }
        }
        for key in changed { if let head = heads[key] { try await rows.save(head) } }

        var touched: Set<LedgerCustomerID> = []
        var inUseBy: LedgerCustomerID?
        var unlinked: LedgerThreadID?
        let keys = heads.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let appUserId {
            // The document is the poster's receipt: the rules decide once per customer that owns part of
            // it (did it hold an active subscription anywhere before this input?), and purchases no one
            // owned yet follow the receipt — to the poster, or to the owner it stays with. A purchase whose
            // record carries a token the server registered to another customer stays (or goes) there.
            var poster = try await identity.use(appUserId).id
            var ownedBy: [LedgerCustomerID: [String]] = [:]
            var boundTo: Set<LedgerCustomerID> = []
            var unowned: [String] = []
            for key in keys {
                guard let thread = heads[key] else { continue }
                let binder = try await registeredCustomer(of: thread)
                if let id = thread.owner, try await rows.customer(identity.current(id)) != nil {
                    let owner = identity.current(id)
                    if owner != poster, let binder, binder != poster { boundTo.insert(owner) }
                    ownedBy[owner, default: []].append(key)
                } else if let binder, binder != poster {
                    boundTo.insert(binder)
                    ownedBy[binder, default: []].append(key)
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
                let decision: IdentityRules.Posting
                if boundTo.contains(ownerID) {
                    decision = .receiptInUseByOtherUser
                } else {
                    let isAnonymous = identity.isAnonymous(owner)
                    let behavior = identity.configuration.restoreBehavior
                    // Asked only where it decides: it reads every purchase the owner holds.
                    let heldActive =
                        !isAnonymous && behavior == .transferIfNoActiveSubscriptions
                        ? try await heldActiveSubscription(owner) : false
                    decision = IdentityRules.posting(
                        owner: isAnonymous ? .anonymous : .identified, behavior: behavior,
                        heldActiveSubscription: heldActive)
                }
                switch decision {
                case .keep, .transfer:
                    for key in ownerKeys {
                        guard var thread = heads[key] else { continue }
                        try await identity.assign(&thread, to: poster)
                    }
                    touched.formUnion([poster, owner.id])
                case .merge:
                    poster = try await identity.merge(poster, owner.id)
                    touched.insert(poster)
                case .receiptInUseByOtherUser:
                    inUseBy = inUseBy ?? owner.id
                    keeper = keeper ?? owner.id
                    for key in ownerKeys {
                        guard var thread = heads[key] else { continue }
                        if thread.owner.map(identity.current) != owner.id {
                            try await identity.assign(&thread, to: owner.id)
                            touched.insert(owner.id)
                        } else if changed.contains(key) {
                            touched.insert(owner.id)
                        }
                    }
                }
            }
            let receiver = keeper.map(identity.current) ?? identity.current(poster)
            for key in unowned.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                guard var thread = heads[key] else { continue }
                if thread.owner.map(identity.current) != receiver || changed.contains(key) { touched.insert(receiver) }
                try await identity.assign(&thread, to: receiver)
            }
        } else {
            for key in keys {
                guard var thread = heads[key] else { continue }
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

    /// Whether `owner` held an auto-renewable subscription active at the instant received in any thread it
    /// owns, as the thread was before this input.
    private func heldActiveSubscription(_ owner: LedgerCustomer) async throws(LedgerRefusal) -> Bool {
        for threadID in owner.threads {
            guard var thread = try await rows.thread(threadID), let source = sources[thread.id.source] else {
                continue
            }
            if threadID.source == self.source.id, let replaced = replaced[threadID.key] {
                thread = Self.thread(thread, before: replaced)
            }
            if source.holdsActiveSubscription(thread, at: receivedAt) { return true }
        }
        return false
    }

    /// `thread` with the records this input replaced put back (and those it added taken away).
    private static func thread(_ thread: LedgerThread, before replaced: [String: LedgerRecord?]) -> LedgerThread {
        var records = thread.records.filter { replaced.index(forKey: $0.statement) == nil }
        for case let record? in replaced.values { records.append(record) }
        records.sort { $0.statement.utf8.lexicographicallyPrecedes($1.statement.utf8) }
        return LedgerThread(id: thread.id, records: records, owner: thread.owner)
    }

    /// The key of the thread `record` belongs to. Chained tokens share one thread whatever order they
    /// arrive in: a record naming a key (`linkedPurchaseToken`) of another chain joins that chain, its
    /// own chain's thread folded in.
    private mutating func threadKey(of record: LedgerRecord) async throws(LedgerRefusal) -> String {
        let own = try await root(of: record.thread)
        for alias in record.threadAliases {
            let target = try await root(of: alias)
            guard target != own else { continue }
            try await fold(own, into: target)
            return target
        }
        return own
    }

    /// The key a chain's aliases lead `key` to (bounded: a loop of aliases ends where it repeats).
    private func root(of key: String) async throws(LedgerRefusal) -> String {
        var key = key
        var seen: Set<String> = [key]
        for _ in 0..<1_000 {
            guard let next = try await rows.threadKey(aliasedBy: id(key)), seen.insert(next).inserted else { break }
            key = next
        }
        return key
    }

    /// Makes the thread `key` part of the thread `target`: an alias from now on, its records and owner
    /// (when `target` has none) moved over.
    private mutating func fold(_ key: String, into target: String) async throws(LedgerRefusal) {
        try await rows.setThreadKey(target, aliasedBy: id(key))
        var folded = heads[key]
        if folded == nil { folded = try await rows.head(id(key)) }
        guard let folded else { return }
        try await load(target)
        guard heads[target] != nil else { return }
        for record in try await rows.thread(of: folded).records { _ = try await keep(record, in: target) }
        guard var into = heads[target] else { return }
        if let previous = folded.owner.map(identity.current), var customer = try await rows.customer(previous) {
            customer.disown(folded.id)
            try await rows.save(customer)
            if into.owner == nil { into.owner = previous }
        }
        if let owner = into.owner.map(identity.current), var customer = try await rows.customer(owner) {
            customer.own(into.id)
            try await rows.save(customer)
        }
        heads[target] = into
        changed.insert(target)
        heads[key] = nil
        replaced[key] = nil
        changed.remove(key)
        try await rows.removeThread(folded)
    }

    /// The customer a token of the thread's records was registered to with `link`, if any.
    private func registeredCustomer(of thread: LedgerThreadHead) async throws(LedgerRefusal) -> LedgerCustomerID? {
        // Import hook: a purchase an import assigned (a purchase-id link) is that customer's, token or not.
        if let assigned = assigned[thread.id.key] { return try await identity.customer(for: assigned).id }
        for link in thread.accountLinks {
            if let key = link.key, let registered = try await rows.registeredAppUserId(for: key) {
                return try await identity.customer(for: registered).id
            }
        }
        return nil
    }

    /// The customer the thread's account links name: a registered account id, else the id the link
    /// stands for (a placeholder created when no one has it yet); `nil` when no link names anyone.
    private func linkedCustomer(of thread: LedgerThreadHead) async throws(LedgerRefusal) -> LedgerCustomerID? {
        if let registered = try await registeredCustomer(of: thread) { return registered }
        for link in thread.accountLinks {
            guard let appUserId = link.appUserId, AppUserIdCheck(appUserId).backendRefusal == nil else { continue }
            if let customer = try await identity.existingCustomer(forToken: appUserId, kind: link.key?.kind) {
                return customer.id
            }
            return try await identity.placeholder(for: appUserId).id
        }
        return nil
    }

    /// Remembers an unlinked thread under each account id its records carry, for a later `link`.
    private func index(unlinked thread: LedgerThreadHead) async throws(LedgerRefusal) {
        for key in Set(thread.accountLinks.compactMap(\.key)) {
            var waiting = try await rows.unlinkedThreads(for: key)
            guard !waiting.contains(thread.id) else { continue }
            waiting.append(thread.id)
            try await rows.setUnlinkedThreads(waiting, for: key)
        }
    }
}
