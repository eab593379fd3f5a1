import EntitlementKit
import Foundation

/// An app's own backend state, kept from the stores' notifications and documents: the newest statement
/// about every purchase, which customer owns it, and each customer's unified snapshot.
///
/// The ledger knows no vendor: each ``LedgerSource`` (in its adapter module) reads and verifies its
/// inputs into records and maps records back to a snapshot. The ledger keeps, per purchase, the newest
/// record of each statement (so arrival order never matters and a redelivery changes nothing), answers a
/// notification id seen before with ``LedgerOutcome/duplicate``, links purchases to customers by the
/// simulated backend's rules (``IdentityRules``), and merges the sources' snapshots.
///
/// ```swift
/// let ledger = EntitlementLedger(sources: [appStore, googlePlay], store: InMemoryLedgerStore())
/// let outcome = try await ledger.apply(notification)      // .applied, .duplicate, .refreshNeeded, …
/// let snapshot = try await ledger.snapshot(for: "alice", at: .now)
/// ```
///
/// Every input is one store transaction: a refused input stores nothing, and a crash never leaves one
/// half-applied.
public actor EntitlementLedger {
    /// The configuration.
    public nonisolated let configuration: LedgerConfiguration
    /// The store.
    public nonisolated let store: any LedgerStore
    nonisolated let sources: [LedgerSourceID: any LedgerSource]

    /// A ledger reading `sources` (one per ``LedgerSourceID``; of two with one id, the last is kept) and
    /// keeping its state in `store`.
    public init(
        sources: [any LedgerSource], store: any LedgerStore = InMemoryLedgerStore(),
        configuration: LedgerConfiguration = LedgerConfiguration()
    ) {
        self.sources = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        self.store = store
        self.configuration = configuration
    }

    private func source(_ id: LedgerSourceID) throws(LedgerRefusal) -> any LedgerSource {
        guard let source = sources[id] else {
            throw LedgerRefusal(.unknownSource, "no source \(DocumentError.quoted(id.rawValue)) is configured")
        }
        return source
    }

    // MARK: Inputs

    /// Applies one input of any kind.
    public func apply(_ input: LedgerInput) async throws(LedgerRefusal) -> LedgerOutcome {
        switch input {
        case .notification(let notification): try await apply(notification)
        case .document(let document): try await apply(document)
        case .logIn(let from, let to): try await logIn(from: from, to: to).outcome
        case .link(let account, let appUserId): try await link(account, to: appUserId)
        }
    }

    /// Reads, verifies and applies a notification.
    public func apply(_ notification: LedgerNotification) async throws(LedgerRefusal) -> LedgerOutcome {
        let source = try source(notification.source)
        let reading = try source.read(notification)
        return try await apply(reading, from: source, postedAs: nil, receivedAt: notification.receivedAt)
    }

    /// Reads what the app posted for `claim.appUserId`: App Store JWS are verified and posted as that id;
    /// any other store's claim is answered ``LedgerOutcome/refreshNeeded(purchaseToken:productId:)`` and
    /// stores nothing (fetch the purchase and apply the document for that id).
    public func apply(_ claim: LedgerClaim) async throws(LedgerRefusal) -> LedgerOutcome {
        let source = try source(claim.source)
        try Self.check(claim.appUserId)
        let reading = try source.read(claim)
        if case .refreshNeeded(let token, let productId) = reading.effect {
            return .refreshNeeded(purchaseToken: token, productId: productId)
        }
        return try await apply(reading, from: source, postedAs: claim.appUserId, receivedAt: claim.receivedAt)
    }

    /// Reads and applies a document the server fetched; with an app user id it is posted as that id.
    public func apply(_ document: LedgerDocument) async throws(LedgerRefusal) -> LedgerOutcome {
        let source = try source(document.source)
        if let appUserId = document.appUserId { try Self.check(appUserId) }
        let reading = try source.read(document)
        return try await apply(reading, from: source, postedAs: document.appUserId, receivedAt: document.receivedAt)
    }

    private func apply(
        _ reading: LedgerReading, from source: any LedgerSource, postedAs appUserId: String?, receivedAt: Date
    ) async throws(LedgerRefusal) -> LedgerOutcome {
        for environment in reading.environments where !configuration.environments.contains(environment) {
            throw LedgerRefusal(
                .environment,
                "the input is from the \(environment.rawValue) environment, which this ledger does not accept")
        }
        let configuration = configuration
        let sources = sources
        return try await store.transaction { transaction throws(LedgerRefusal) in
            let rows = LedgerRows(transaction: transaction)
            if let id = reading.notificationId {
                if try await rows.seen(id, of: source.id) != nil { return .duplicate }
                try await rows.markSeen(id, of: source.id, at: receivedAt)
            }
            switch reading.effect {
            case .noChange(let reason):
                return .noChange(reason: reason)
            case .refreshNeeded(let token, let productId):
                return .refreshNeeded(purchaseToken: token, productId: productId)
            case .records(let records):
                var posting = LedgerPosting(
                    identity: LedgerIdentity(rows: rows, configuration: configuration), source: source,
                    sources: sources, receivedAt: receivedAt)
                return try await posting.apply(records, postedAs: appUserId)
            }
        }
    }

    /// logIn from `current` to `new`, as seed 002 and the simulated backend: an anonymous id's customer
    /// takes the new id as an alias (or merges into its customer); an identified id only switches.
    public func logIn(from current: String, to new: String) async throws(LedgerRefusal) -> LedgerLogInResult {
        try Self.check(current)
        try Self.check(new)
        let configuration = configuration
        return try await store.transaction { transaction throws(LedgerRefusal) in
            var identity = LedgerIdentity(rows: LedgerRows(transaction: transaction), configuration: configuration)
            return try await identity.logIn(from: current, to: new)
        }
    }

    /// Makes `appUserId` a known customer — created with no purchases when no one has the id — as a
    /// backend does when the app first asks for it (the simulated backend's "created empty when first
    /// asked for"): a later `logIn` to it answers `created: false`. Whether it was created.
    @discardableResult
    public func register(appUserId: String) async throws(LedgerRefusal) -> Bool {
        try Self.check(appUserId)
        let configuration = configuration
        return try await store.transaction { transaction throws(LedgerRefusal) in
            let identity = LedgerIdentity(rows: LedgerRows(transaction: transaction), configuration: configuration)
            let existed = try await identity.existingCustomer(for: appUserId) != nil
            _ = try await identity.use(appUserId)
            return !existed
        }
    }

    /// Registers which app user id an account id (an `appAccountToken`, an `obfuscatedExternalAccountId`,
    /// a Stripe customer) belongs to, and gives that customer the unlinked purchases that carry it. From
    /// then on a purchase carrying it is that customer's against any posting (`receiptInUseByOtherUser`).
    /// It never moves a purchase someone owns — except from a placeholder: the customer a notification
    /// made from the unregistered token, whose id the app has not used yet (the notification beat the
    /// link), whose purchases move to `appUserId` and which is removed.
    public func link(_ account: LedgerAccountKey, to appUserId: String) async throws(LedgerRefusal) -> LedgerOutcome {
        try Self.check(appUserId)
        let configuration = configuration
        return try await store.transaction { transaction throws(LedgerRefusal) in
            let rows = LedgerRows(transaction: transaction)
            let identity = LedgerIdentity(rows: rows, configuration: configuration)
            try await rows.register(account, appUserId: appUserId)
            var linked = false
            // A Stripe customer id never stands for an app user id itself, so it never made a placeholder.
            if account.kind != .stripeCustomer,
                let placeholder = try await identity.existingCustomer(forToken: account.value, kind: account.kind),
                placeholder.isPlaceholder, try await identity.existingCustomer(for: appUserId)?.id != placeholder.id
            {
                let customer = try await identity.customer(for: appUserId)
                linked = try await identity.absorb(placeholder: placeholder, into: customer.id)
            }
            for id in try await rows.unlinkedThreads(for: account) {
                guard var thread = try await rows.head(id), thread.owner == nil else { continue }
                let customer = try await identity.customer(for: appUserId)
                try await identity.assign(&thread, to: customer.id)
                linked = true
            }
            try await rows.setUnlinkedThreads([], for: account)
            guard linked, let name = try await identity.existingCustomer(for: appUserId)?.originalAppUserId else {
                return .noChange(reason: "the link linked no purchase")
            }
            return .applied(customers: [name])
        }
    }

    /// ``link(_:to:)`` for an App Store `appAccountToken`.
    public func link(accountToken: String, to appUserId: String) async throws(LedgerRefusal) -> LedgerOutcome {
        try await link(LedgerAccountKey(.appAccountToken, accountToken), to: appUserId)
    }

    /// ``link(_:to:)`` for a Play `obfuscatedExternalAccountId`.
    public func link(obfuscatedAccountId: String, to appUserId: String) async throws(LedgerRefusal) -> LedgerOutcome {
        try await link(LedgerAccountKey(.obfuscatedAccountId, obfuscatedAccountId), to: appUserId)
    }

    /// ``link(_:to:)`` for a Stripe customer id.
    public func link(stripeCustomer: String, to appUserId: String) async throws(LedgerRefusal) -> LedgerOutcome {
        try await link(LedgerAccountKey(.stripeCustomer, stripeCustomer), to: appUserId)
    }

    /// Forgets the notification ids first received more than the configured retention before `instant`
    /// (never less than 30 days); how many.
    @discardableResult
    public func purgeSeenNotifications(at instant: Date) async throws(LedgerRefusal) -> Int {
        let cutoff = instant.addingTimeInterval(-configuration.seenNotificationRetention)
        return try await store.transaction { transaction throws(LedgerRefusal) in
            try await LedgerRows(transaction: transaction).purgeSeen(before: cutoff)
        }
    }

    // MARK: Answers

    /// The unified snapshot of `appUserId`'s customer at `instant`: each source's mapping over the
    /// purchases the customer owns, merged (per entitlement the latest access wins). An unknown id has an
    /// empty snapshot.
    public func snapshot(for appUserId: String, at instant: Date) async throws(LedgerRefusal) -> EntitlementSnapshot {
        let sources = sources
        return try await store.transaction { transaction throws(LedgerRefusal) in
            let rows = LedgerRows(transaction: transaction)
            var threads: [LedgerThread] = []
            var original: String?
            if let id = try await rows.customerID(forAppUserId: appUserId), var customer = try await rows.customer(id) {
                if customer.isPlaceholder {
                    // The app read the id: the customer is its own from now on, never moved by a later link.
                    customer.placeholder = nil
                    try await rows.save(customer)
                }
                original = customer.originalAppUserId
                for threadID in customer.threads {
                    if let thread = try await rows.thread(threadID) { threads.append(thread) }
                }
            }
            return try LedgerSnapshotAssembly(sources: sources).snapshot(
                of: threads, appUserId: appUserId, originalAppUserId: original, at: instant)
        }
    }

    /// Every customer's app user ids (the original first), customers in the order they were created; a
    /// customer whose own row is damaged is left out (its snapshot throws ``LedgerRefusal/Kind/damaged``).
    public func customers() async throws(LedgerRefusal) -> [[String]] {
        try await store.transaction { transaction throws(LedgerRefusal) in
            let rows = LedgerRows(transaction: transaction)
            var customers: [[String]] = []
            for id in try await rows.customerIDs() {
                // A damaged customer row names no ids: listed by no one, refused to whoever reads it.
                do throws(LedgerRefusal) {
                    if let customer = try await rows.customer(id) { customers.append(customer.appUserIds) }
                } catch  where error.kind == .damaged {
                    continue
                }
            }
            return customers
        }
    }

    /// The app user ids of the customer holding `appUserId` (the original first; an alias set), or none
    /// when no customer holds it: one customer read, where ``customers()`` reads them all. A server's
    /// login route asks it to tell an anonymous id that is still free from one an identified customer
    /// already holds.
    public func appUserIds(ofCustomerHolding appUserId: String) async throws(LedgerRefusal) -> [String] {
        try await store.transaction { transaction throws(LedgerRefusal) in
            let rows = LedgerRows(transaction: transaction)
            guard let id = try await rows.customerID(forAppUserId: appUserId) else { return [] }
            return try await rows.customer(id)?.appUserIds ?? []
        }
    }

    /// The thread `id`, as kept.
    public func thread(_ id: LedgerThreadID) async throws(LedgerRefusal) -> LedgerThread? {
        try await store.transaction { transaction throws(LedgerRefusal) in
            try await LedgerRows(transaction: transaction).thread(id)
        }
    }

    private static func check(_ appUserId: String) throws(LedgerRefusal) {
        if let refusal = AppUserIdCheck(appUserId).backendRefusal {
            throw LedgerRefusal(.invalidAppUserId, "app user id \(DocumentError.quoted(appUserId)) \(refusal)")
        }
    }
}
