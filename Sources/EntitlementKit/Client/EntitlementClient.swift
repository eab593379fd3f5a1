import Foundation

/// What an app calls at launch and before premium content: the current customer's entitlements from
/// any ``EntitlementProvider``, fast, offline, and without being fooled by the device clock.
///
/// ```swift
/// let client = try await EntitlementClient(provider: provider, cache: cache)
/// let check = await client.checkEntitlements()
/// if check.isActive("premium") { unlockPremium() }
/// ```
///
/// - Identity: the client owns the current app user id (configured, stored from an earlier launch, or a
///   new anonymous one), validates every id before any backend call, and keys everything it caches by
///   app user id: one customer's answer is never shown to another, even when a fetch for the previous
///   customer finishes after a ``logIn(_:)`` or ``logOut()``.
/// - Freshness: an entry is fresh for `freshFor` after it was written, measured on the monotonic clock
///   within a run; after a relaunch only while `writtenAt <= device now < writtenAt + freshFor`.
/// - Time: every answer is evaluated at the trusted instant, `max(device now, server now, floor)`; see
///   <doc:CheckingEntitlementsInAnApp>.
/// - Failure is an answer: ``checkEntitlements(_:)`` never throws; its ``EntitlementCheck`` carries the
///   snapshot (or none), its source and the error met on the way.
public actor EntitlementClient {
    /// How often a check restarts for the new customer when the customer changes while it waits.
    private static let identityAttempts = 3
    /// The persisted floor is rewritten once the floor in use is this far ahead of it (a cache write per
    /// answer would cost an fsync per `checkEntitlements`), and at once whenever an answer's access
    /// changes (so no relaunch with the clock turned back revives what lapsed); the floor in use is never
    /// behind.
    private static let floorPersistStep: TimeInterval = 1

    private let provider: any EntitlementProvider
    private let cache: any EntitlementCache
    private let freshFor: Duration
    private let deviceClock: any WallClock
    private let monotonicClock: any MonotonicClock
    private let logger: EntitlementLogger
    private let broadcaster: UpdateBroadcaster
    /// Follows the provider's change signals (``EntitlementProvider/makeChangeSignals()``) for as long as
    /// the client lives: cancelled on release, which ends the provider's stream too.
    private var changeFollower: Task<Void, Never>?

    /// The current customer's app user id.
    public private(set) var appUserId: String
    /// Bumped by every change of customer, so work begun for the previous one can tell.
    private var identityGeneration = 0
    private var trustedClock: TrustedClock
    private var persistedFloor: Date?
    /// The cache's shared-state stamp when this client last read the stored id: a warm check answers from
    /// memory only while it is unchanged (another process may have logged in or out since).
    private var knownSharedStamp: CacheStamp?
    /// The stored app user id as this client last read or wrote it: only a stored id that differs from it
    /// was changed by another process. A write of this client's that failed (a full disk) leaves the old
    /// id on disk, and that must not be taken for another process's logIn or logOut.
    private var knownStoredAppUserId: String?
    /// The active entitlement ids of the last answer: when an answer's differ, the floor is persisted.
    private var lastAccess: [String]?
    /// Whether a logIn or logOut is under way: identity changes run one at a time, so the stored id is
    /// always the current one whatever order they are called in.
    private var isChangingIdentity = false
    private var identityChangeWaiters: [CheckedContinuation<Void, Never>] = []
    /// The newest backend answer (by `requestDate`) stored for each customer in this run. Calls overlap: one
    /// that began earlier can finish later with older data, which must neither replace what a later call
    /// stored nor be shown after it.
    private var newestAnswers: [AppUserIdKey: EntitlementSnapshot] = [:]
    /// Entries written in this run: their `writtenAt` and the monotonic reading when written.
    private var writtenThisRun: [AppUserIdKey: (writtenAt: Date, elapsed: Duration)] = [:]
    /// The current customer's entry as last read or written, while nothing has made it out of date: a
    /// fresh one answers a check without a call to the cache (see ``WarmEntry``).
    private var warm: WarmEntry?
    /// Bumped by every change of ``warm``, so a read or write that awaited meanwhile can tell that what it
    /// holds may be older than what the client knows.
    private var warmRevision = 0

    /// Configures the client. No backend call.
    ///
    /// - Parameters:
    ///   - provider: the backend.
    ///   - cache: the device's persistent storage (kept across launches). The client uses the part of it
    ///     that belongs to the provider's ``EntitlementProvider/storageNamespace``
    ///     (``EntitlementCache/partition(for:)``), so clients of two backends can share one directory.
    ///   - appUserId: the customer; `nil` → the id stored in `cache` by an earlier launch, else a new
    ///     anonymous id in the provider's form. The id used is stored for the next launch. A given id is
    ///     checked first: one the backends refuse throws ``EntitlementClientError/Code/invalidAppUserId``
    ///     (it is not trimmed).
    ///   - freshFor: how long a cached entry answers without a backend call.
    ///   - deviceClock: the device's clock (may be wrong, may move back).
    ///   - monotonicClock: time since the client started (never moves back).
    ///   - logger: where the client says what it does (never ids, receipts or keys).
    public init(
        provider: any EntitlementProvider,
        cache: any EntitlementCache,
        appUserId: String? = nil,
        freshFor: Duration = .seconds(300),
        deviceClock: any WallClock = SystemClock(),
        monotonicClock: any MonotonicClock = SystemMonotonicClock(),
        logger: EntitlementLogger = .disabled
    ) async throws(EntitlementClientError) {
        if let appUserId { try Self.validate(appUserId) }
        let cache = provider.clientCache(in: cache)
        let stored = await cache.storedAppUserId()
        let chosen: String
        if let appUserId {
            chosen = appUserId
        } else if let stored, AppUserIdCheck(stored).backendRefusal == nil {
            chosen = stored
        } else {
            chosen = provider.makeAnonymousAppUserId()
        }
        let floor = await cache.trustedFloor()
        // Before this launch stores anything: a cache with no customer and no record is a new install.
        let needsSync = await cache.recordLaunch(LaunchConfiguration(of: provider))

        self.provider = provider
        self.cache = cache
        self.freshFor = freshFor
        self.deviceClock = deviceClock
        broadcaster = UpdateBroadcaster(deviceClock: deviceClock, monotonicClock: monotonicClock)
        self.monotonicClock = monotonicClock
        self.logger = logger
        self.appUserId = chosen
        needsPurchaseSync = needsSync
        persistedFloor = floor
        knownStoredAppUserId = stored
        trustedClock = TrustedClock(floor: floor, elapsed: monotonicClock.elapsed())

        let isStored = stored.map { chosen.isSameAppUserId(as: $0) } ?? false
        if !isStored {
            await persistAppUserId(chosen)
        } else {
            do {
                try await cache.recordStartingAppUserId(chosen)
            } catch {
                logger.log(.warning, "the cache could not store the app user id for the shadow (\(error.code))")
            }
        }
        // A stream made before the first check starts with what an earlier launch cached for the customer,
        // evaluated no earlier than the trusted instant (the floor, and the entry's newest server time).
        if let entry = await cache.entry(for: chosen) {
            var instant = deviceClock.now()
            let serverTime = entry.newestRequestDate ?? entry.snapshot.trustedServerTime
            for known in [floor, serverTime].compactMap(\.self) where known > instant { instant = known }
            broadcaster.offerForReplay(entry.snapshot.evaluated(at: instant))
        }
        if let signals = provider.makeChangeSignals() {
            changeFollower = Self.follow(signals, for: self)
        }
        let how =
            appUserId != nil
            ? "the given app user id" : isStored ? "the stored app user id" : "a new anonymous id"
        logger.log(.info, "configured with \(how)")
    }

    deinit {
        changeFollower?.cancel()
        broadcaster.finish()
    }

    /// Refetches the current customer's snapshot on each of the provider's signals, holding the client
    /// only while it does: a client no one else holds is released, and its release cancels this.
    private static func follow(_ signals: AsyncStream<Void>, for client: EntitlementClient) -> Task<Void, Never> {
        Task { [weak client] in
            for await _ in signals {
                guard let client else { return }
                await client.refetchAfterChangeSignal()
            }
        }
    }

    /// The provider said its answers may have changed: fetch the current customer's snapshot, so the update
    /// streams yield the new answer (a failure leaves the cached answer standing, as any failed fetch does).
    private func refetchAfterChangeSignal() async {
        logger.log(.debug, "the backend signalled a change; fetching the current answer")
        _ = await checkEntitlements(.fetchCurrent)
    }

    /// Whether the app should call ``syncPurchases(_:)`` once now: this is the first launch on this device of a
    /// new provider configuration — a migration's new stage (the shadow started, the cut-over, a roll-back,
    /// the old backend retired) — and no sync or restore has succeeded under it since (in any process
    /// sharing the cache).
    ///
    /// A purchase made before the shadow started reaches the new backend only through the store's receipt;
    /// one sync at the first launch of each stage posts it (RevenueCat asks the same of apps importing
    /// customers). `false` on a new install, for a configuration already synced, and with a cache of your own
    /// (only ``DirectoryEntitlementCache`` and ``InMemoryEntitlementCache`` record configurations). A
    /// successful ``syncPurchases(_:)`` or ``restorePurchases(_:)`` makes it `false`.
    ///
    /// ```swift
    /// if await client.needsPurchaseSync {
    ///     _ = try? await client.syncPurchases(receipt)   // once per stage; a failure asks again next launch
    /// }
    /// ```
    public private(set) var needsPurchaseSync: Bool

    /// Whether the current customer is anonymous (the id has the provider's anonymous form).
    public var isAnonymous: Bool {
        provider.isAnonymous(appUserId)
    }

    /// How many answers an update stream made when this client was created would have yielded so far (see
    /// ``EntitlementUpdates``; the cached entry a new stream may start with is not an answer, so configuring
    /// counts nothing). Deterministic, unlike consuming a stream concurrently.
    public var updateCount: Int {
        broadcaster.updateCount
    }

    /// A new stream of the client's answers as they change; see ``EntitlementUpdates`` for exactly what
    /// it yields.
    public nonisolated func updates() -> EntitlementUpdates {
        broadcaster.makeStream()
    }

    // MARK: - Checking

    /// The current customer's entitlements under `policy`. Never throws: failure is an answer too.
    ///
    /// - ``FetchPolicy/cachedOrFetched``: a fresh entry answers (source `cache`); otherwise fetch
    ///   (`network`) and store; a failed fetch falls back to the entry of any age (`cache`, the error
    ///   alongside), else fails with the error.
    /// - ``FetchPolicy/fetchCurrent``: always fetch; a failure is handled as above.
    /// - ``FetchPolicy/notStaleCachedOrFetched``: a fresh entry answers; otherwise fetch; a failed fetch
    ///   fails even with a stale entry.
    /// - ``FetchPolicy/fromCacheOnly``: the entry of any age, or ``EntitlementClientError/Code/noCachedSnapshot``;
    ///   never a backend call.
    ///
    /// Every snapshot is evaluated at the trusted instant. When the customer changes (``logIn(_:)``,
    /// ``logOut()``) while the check waits, nothing it got is stored or shown: it starts again for the
    /// new customer.
    public func checkEntitlements(_ policy: FetchPolicy = .cachedOrFetched) async -> EntitlementCheck {
        if let answer = await warmCheck(policy) { return answer }
        await followStoredAppUserId()
        for _ in 0..<Self.identityAttempts {
            if let answer = await check(policy, for: appUserId, generation: identityGeneration) { return answer }
            logger.log(.debug, "check \(policy): the customer changed while it ran; checking for the new one")
        }
        logger.log(.error, "check \(policy): the customer kept changing; no answer")
        return EntitlementCheck(
            snapshot: nil, source: .cache,
            error: EntitlementClientError(.noCachedSnapshot, "the customer changed during every attempt of the check"))
    }

    /// The current customer's cached entry evaluated at the trusted instant, if any. No backend call, no
    /// update.
    public func cachedSnapshot() async -> EntitlementSnapshot? {
        for _ in 0..<Self.identityAttempts {
            let generation = identityGeneration
            let entry = await readEntry(for: appUserId)
            guard generation == identityGeneration else { continue }
            guard let entry else { return nil }
            let instant = await trustedInstant()
            guard generation == identityGeneration else { continue }
            return entry.snapshot.evaluated(at: instant)
        }
        return nil
    }

    /// Marks the current customer's entry stale: the next check fetches (`cachedOrFetched`,
    /// `notStaleCachedOrFetched`), while the entry still answers `fromCacheOnly` and after a failed fetch.
    public func invalidateCache() async {
        let id = appUserId
        let generation = identityGeneration
        guard let entry = await cache.entry(for: id), generation == identityGeneration else { return }
        writtenThisRun[AppUserIdKey(id)] = (entry.writtenAt, monotonicClock.elapsed() - freshFor)
        setWarm(nil)
        guard !entry.isInvalidated else { return }
        do {
            try await cache.store(entry.invalidated(), for: id)
        } catch {
            logger.log(.warning, "invalidateCache: the cache could not mark the entry stale (\(error.code))")
        }
        logger.log(.info, "invalidateCache: the cached entry is stale")
    }

    /// The check the current customer's entry in memory answers, without a call to the cache: a fresh
    /// entry under any policy but `fetchCurrent`. Only the answer's `evaluatedAt` moves when nothing else
    /// changed, and the update streams are offered it only when its access may differ from the last one
    /// offered (or something else was offered or a stream made since). `nil`: the full check decides.
    private func warmCheck(_ policy: FetchPolicy) async -> EntitlementCheck? {
        guard policy != .fetchCurrent, let known = warm, known.generation == identityGeneration,
            cache.sharedStateStamp() == knownSharedStamp
        else { return nil }
        let elapsed = monotonicClock.elapsed()
        let deviceNow = deviceClock.now()
        guard known.isFresh(elapsed: elapsed, deviceNow: deviceNow) else { return nil }
        let (instant, floorToPersist) = advanceTrustedClock(deviceNow: deviceNow, elapsed: elapsed)
        if let floorToPersist {
            let revision = warmRevision
            await persistFloor(floorToPersist)
            guard revision == warmRevision, known.generation == identityGeneration else { return nil }
        }
        let (snapshot, accessMayDiffer) = known.answer(at: instant)
        if accessMayDiffer || !(known.offeredVersion.map(broadcaster.isUnchanged(since:)) ?? false) {
            known.offeredVersion = broadcaster.publish(snapshot)
        }
        if accessMayDiffer { await persistFloorIfAccessChanged(snapshot) }
        logger.log(
            .debug,
            policy == .fromCacheOnly
                ? "check \(policy): the cached entry answers" : "check \(policy): a fresh cached entry answers")
        return EntitlementCheck(snapshot: snapshot, source: .cache, error: nil)
    }

    private func check(_ policy: FetchPolicy, for id: String, generation: Int) async -> EntitlementCheck? {
        let entry = await readEntry(for: id)
        guard generation == identityGeneration else { return nil }

        if policy == .fromCacheOnly {
            guard let entry else {
                logger.log(.info, "check \(policy): nothing cached for the customer")
                return EntitlementCheck(
                    snapshot: nil, source: .cache,
                    error: EntitlementClientError(.noCachedSnapshot, "nothing is cached for the current customer"))
            }
            logger.log(.debug, "check \(policy): the cached entry answers")
            return await answer(entry.snapshot, for: id, source: .cache, error: nil, generation: generation)
        }
        if policy != .fetchCurrent, let entry, isFresh(entry, for: id) {
            logger.log(.debug, "check \(policy): a fresh cached entry answers")
            return await answer(entry.snapshot, for: id, source: .cache, error: nil, generation: generation)
        }

        let fetched: ValidatedSnapshot
        do {
            // The entry's validator lets a backend answer "unchanged" without a body to decode.
            fetched = try await provider.snapshot(
                for: id,
                revalidating: entry.flatMap { entry in
                    entry.validator.map { ValidatedSnapshot(snapshot: entry.snapshot, validator: $0) }
                })
        } catch {
            guard generation == identityGeneration else { return nil }
            if policy != .notStaleCachedOrFetched, let entry {
                logger.log(.warning, "check \(policy): the fetch failed (\(error.code)); the cached entry answers")
                return await answer(entry.snapshot, for: id, source: .cache, error: error, generation: generation)
            }
            logger.log(.error, "check \(policy): the fetch failed (\(error.code)); no answer")
            return EntitlementCheck(snapshot: nil, source: .network, error: error)
        }
        guard await store(fetched.snapshot, for: id, generation: generation, validator: fetched.validator) else {
            return nil
        }
        logger.log(.info, "check \(policy): fetched from the backend and cached")
        return await answer(fetched.snapshot, for: id, source: .network, error: nil, generation: generation)
    }

    /// Evaluates `snapshot` (or a newer answer for `id` stored meanwhile) at the trusted instant and
    /// publishes it; `nil` when the customer changed.
    private func answer(
        _ snapshot: EntitlementSnapshot, for id: String, source: EntitlementCheck.Source,
        error: EntitlementClientError?, generation: Int
    ) async -> EntitlementCheck? {
        let instant = await trustedInstant()
        guard generation == identityGeneration else { return nil }
        let evaluated = newer(snapshot, for: id).evaluated(at: instant)
        // Published before anything else is awaited: an answer held back meanwhile could follow a newer one.
        broadcaster.publish(evaluated)
        await persistFloorIfAccessChanged(evaluated)
        return EntitlementCheck(snapshot: evaluated, source: source, error: error)
    }

    private func isFresh(_ entry: EntitlementCacheEntry, for id: String) -> Bool {
        WarmEntry.isFresh(
            freshness(of: entry, for: id), elapsed: monotonicClock.elapsed(), deviceNow: deviceClock.now())
    }

    private func freshness(of entry: EntitlementCacheEntry, for id: String) -> WarmEntry.Freshness {
        if entry.isInvalidated { return .never }
        if let written = writtenThisRun[AppUserIdKey(id)], written.writtenAt == entry.writtenAt {
            return .monotonic(until: written.elapsed + freshFor)
        }
        // Written by an earlier run: only the device clock relates now to writtenAt. A clock earlier than
        // writtenAt has moved, so the entry's age is unknown: not fresh.
        return .deviceClock(from: entry.writtenAt, until: entry.writtenAt.addingTimeInterval(freshFor.timeInterval))
    }

    /// Keeps `entry` in memory as the current customer's (or forgets it: `nil`).
    private func setWarm(_ entry: EntitlementCacheEntry?, for id: String) {
        setWarm(
            entry.map {
                WarmEntry(
                    appUserId: id, generation: identityGeneration, entry: $0, facts: newer($0.snapshot, for: id),
                    freshness: freshness(of: $0, for: id))
            })
    }

    private func setWarm(_ value: WarmEntry?) {
        warm = value
        warmRevision &+= 1
    }

    // MARK: - Identity

    /// Switches to the customer `newAppUserId` (trimmed of leading and trailing whitespace, as
    /// RevenueCat's SDK does). The same id as now → no backend call, `created == false`, the cached
    /// entry (or, with none, an empty snapshot that grants nothing). Otherwise the provider decides
    /// aliasing; the previous customer's cache entry is dropped and the answer is the new customer's
    /// snapshot, stored as fresh. Throws ``EntitlementClientError/Code/invalidAppUserId`` before any
    /// backend call, or the provider's error (the customer then stays the same).
    public func logIn(_ newAppUserId: String) async throws(EntitlementClientError) -> LogInResult {
        let trimmed = newAppUserId.trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.validate(trimmed)
        await beginIdentityChange()
        defer { endIdentityChange() }
        let current = appUserId
        let generation = identityGeneration
        if trimmed.isSameAppUserId(as: current) {
            logger.log(.info, "logIn: already the current customer; no backend call")
            let entry = await readEntry(for: current)
            let instant = await trustedInstant()
            guard let entry else {
                return LogInResult(snapshot: emptySnapshot(for: current, at: instant), created: false)
            }
            let evaluated = newer(entry.snapshot, for: current).evaluated(at: instant)
            if generation == identityGeneration { broadcaster.publish(evaluated) }
            return LogInResult(snapshot: evaluated, created: false)
        }

        let result: LogInResult
        do {
            result = try await provider.logIn(from: current, to: trimmed)
        } catch {
            logger.log(.error, "logIn: the backend refused (\(error.code)); the customer is unchanged")
            throw error
        }
        // The customer changes before anything else is awaited, so work still running for the previous
        // one sees it and keeps its result to itself.
        let previous = appUserId
        identityGeneration += 1
        broadcaster.forgetCurrent()
        let newGeneration = identityGeneration
        appUserId = trimmed
        setWarm(nil)
        await dropEntries(for: [current, previous])
        await persistAppUserId(trimmed)
        logger.log(.info, "logIn: switched customer (created: \(result.created))")
        let stored = await store(result.snapshot, for: trimmed, generation: newGeneration)
        let instant = await trustedInstant()
        let evaluated = newer(result.snapshot, for: trimmed).evaluated(at: instant)
        if stored && newGeneration == identityGeneration { broadcaster.publish(evaluated) }
        return LogInResult(snapshot: evaluated, created: result.created)
    }

    /// Switches to a new anonymous customer and drops the previous customer's cache entry. No backend
    /// call. Throws ``EntitlementClientError/Code/alreadyAnonymous`` when the current customer is
    /// anonymous.
    public func logOut() async throws(EntitlementClientError) {
        await beginIdentityChange()
        defer { endIdentityChange() }
        guard !isAnonymous else {
            throw EntitlementClientError(.alreadyAnonymous, "logOut: the current customer is already anonymous")
        }
        let previous = appUserId
        identityGeneration += 1
        broadcaster.forgetCurrent()
        appUserId = provider.makeAnonymousAppUserId()
        setWarm(nil)
        let newId = appUserId
        await dropEntries(for: [previous])
        await persistAppUserId(newId)
        logger.log(.info, "logOut: switched to a new anonymous customer")
    }

    /// Takes the stored app user id as the current one when another process sharing the cache (the app
    /// or one of its extensions) changed it with a logIn or logOut: the next check after that answers for
    /// the customer the device now belongs to. A warm check (a fresh entry in memory) reads nothing, but
    /// it answers only while the cache's shared-state stamp is the one seen here.
    private func followStoredAppUserId() async {
        guard !isChangingIdentity else { return }
        // Taken before the read: a change after it gives another stamp, and the next warm check comes here.
        knownSharedStamp = cache.sharedStateStamp()
        let generation = identityGeneration
        guard let stored = await cache.storedAppUserId(), generation == identityGeneration, !isChangingIdentity,
            !(knownStoredAppUserId.map(stored.isSameAppUserId(as:)) ?? false)
        else { return }
        knownStoredAppUserId = stored
        guard !stored.isSameAppUserId(as: appUserId), AppUserIdCheck(stored).backendRefusal == nil else { return }
        identityGeneration += 1
        broadcaster.forgetCurrent()
        appUserId = stored
        setWarm(nil)
        logger.log(.info, "another process changed the customer; this client follows")
    }

    /// Waits until no other logIn or logOut is under way, then marks one as under way.
    private func beginIdentityChange() async {
        while isChangingIdentity {
            await withCheckedContinuation { identityChangeWaiters.append($0) }
        }
        isChangingIdentity = true
    }

    /// Marks the identity change done and lets the next waiting one run.
    private func endIdentityChange() {
        isChangingIdentity = false
        if !identityChangeWaiters.isEmpty { identityChangeWaiters.removeFirst().resume() }
    }

    // MARK: - Purchases

    /// Posts what the store holds as the current customer (a user-initiated restore) and stores the
    /// snapshot the provider answers with: the next check is fresh and shows it.
    public func restorePurchases(_ receipt: StoreReceipt) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await postReceipt(receipt, operation: "restorePurchases")
    }

    /// Posts what the store holds as the current customer (a silent sync) and stores the snapshot the
    /// provider answers with: the next check is fresh and shows it.
    public func syncPurchases(_ receipt: StoreReceipt) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await postReceipt(receipt, operation: "syncPurchases")
    }

    /// Reports a purchase the store just completed and stores the snapshot the provider answers with, so
    /// the next check is fresh and already shows the purchase.
    public func recordPurchase(_ purchase: StorePurchase) async throws(EntitlementClientError) -> EntitlementSnapshot {
        let id = appUserId
        let generation = identityGeneration
        let snapshot: EntitlementSnapshot
        do {
            snapshot = try await provider.reportPurchase(purchase, for: id)
        } catch {
            logger.log(.error, "recordPurchase: failed (\(error.code))")
            throw error
        }
        logger.log(.info, "recordPurchase: the backend answered; caching its snapshot")
        return await acceptOperationResult(snapshot, for: id, generation: generation)
    }

    private func postReceipt(_ receipt: StoreReceipt, operation: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        let id = appUserId
        let generation = identityGeneration
        let snapshot: EntitlementSnapshot
        do {
            snapshot = try await provider.syncPurchases(receipt, for: id)
        } catch {
            logger.log(.error, "\(operation): failed (\(error.code))")
            throw error
        }
        logger.log(.info, "\(operation): the backend answered; caching its snapshot")
        if needsPurchaseSync {
            needsPurchaseSync = false
            await cache.recordPurchasesSynced(LaunchConfiguration(of: provider))
        }
        return await acceptOperationResult(snapshot, for: id, generation: generation)
    }

    /// Stores an operation's snapshot and publishes it, unless the customer changed meanwhile (then the
    /// caller still gets the answer of the operation it started, but nothing is stored or published).
    private func acceptOperationResult(_ snapshot: EntitlementSnapshot, for id: String, generation: Int) async
        -> EntitlementSnapshot
    {
        let stored = await store(snapshot, for: id, generation: generation)
        let instant = await trustedInstant()
        let evaluated = newer(snapshot, for: id).evaluated(at: instant)
        if stored && generation == identityGeneration { broadcaster.publish(evaluated) }
        return evaluated
    }

    // MARK: - Cache and clock

    /// Reads `id`'s entry from the cache (always: a full check sees what another process wrote); its
    /// server time raises the trusted clock. The current customer's entry is kept in memory, unless the
    /// client wrote or dropped it while the read was under way.
    private func readEntry(for id: String) async -> EntitlementCacheEntry? {
        let revision = warmRevision
        let generation = identityGeneration
        let entry = await cache.entry(for: id)
        if let entry, let serverTime = entry.newestRequestDate ?? entry.snapshot.trustedServerTime {
            trustedClock.observe(serverTime: serverTime, elapsed: monotonicClock.elapsed())
        }
        if revision == warmRevision, generation == identityGeneration, id.isSameAppUserId(as: appUserId) {
            setWarm(entry, for: id)
        }
        return entry
    }

    /// Stores `snapshot` (with its backend's `validator`) as `id`'s fresh entry, unless the customer
    /// changed (before or while storing). Returns whether the entry stands.
    private func store(_ fetched: EntitlementSnapshot, for id: String, generation: Int, validator: String? = nil)
        async -> Bool
    {
        guard generation == identityGeneration else { return false }
        // An older answer than one already stored this run (a slow call that began first) keeps the newer,
        // without the older answer's validator.
        let snapshot = newer(fetched, for: id)
        newestAnswers[AppUserIdKey(id)] = snapshot
        let elapsed = monotonicClock.elapsed()
        if let serverTime = snapshot.trustedServerTime {
            trustedClock.observe(serverTime: serverTime, elapsed: elapsed)
        }
        let entry = EntitlementCacheEntry(
            snapshot: snapshot,
            writtenAt: deviceClock.now().truncatedToMilliseconds,
            newestRequestDate: trustedClock.serverNow(elapsed: elapsed)?.truncatedToMilliseconds,
            validator: snapshot == fetched ? validator : nil)
        writtenThisRun[AppUserIdKey(id)] = (entry.writtenAt, elapsed)
        setWarm(nil)
        let revision = warmRevision
        var isStored = true
        do {
            try await cache.store(entry, for: id)
        } catch {
            isStored = false
            logger.log(.warning, "the cache could not store the entry (\(error.code)); the next check fetches")
        }
        guard generation == identityGeneration else {
            // The customer changed while the entry was written: the previous customer's entry must not
            // outlive the switch (which already dropped it).
            if !id.isSameAppUserId(as: appUserId) { await dropEntries(for: [id]) }
            return false
        }
        // Kept in memory only when the cache holds it and nothing newer was read or written meanwhile.
        if isStored, revision == warmRevision { setWarm(entry, for: id) }
        return true
    }

    /// `snapshot`, or the newer answer already stored for `id` in this run (compared by the server's
    /// `requestDate`; a snapshot without one cannot be ordered and is taken as it is).
    private func newer(_ snapshot: EntitlementSnapshot, for id: String) -> EntitlementSnapshot {
        guard let known = newestAnswers[AppUserIdKey(id)], let knownDate = known.requestDate,
            let date = snapshot.requestDate, knownDate > date
        else { return snapshot }
        return known
    }

    private func dropEntries(for ids: [String]) async {
        for id in Set(ids.map(AppUserIdKey.init)).map(\.appUserId) where !id.isSameAppUserId(as: appUserId) {
            if let warm, warm.appUserId.isSameAppUserId(as: id) { setWarm(nil) }
            writtenThisRun[AppUserIdKey(id)] = nil
            newestAnswers[AppUserIdKey(id)] = nil
            await cache.removeEntry(for: id)
        }
    }

    private func persistAppUserId(_ id: String) async {
        do {
            try await cache.storeAppUserId(id)
            knownStoredAppUserId = id
        } catch {
            logger.log(.warning, "the cache could not store the app user id (\(error.code))")
        }
    }

    /// `max(device now, server now, floor)`, persisting the floor when it has moved on.
    private func trustedInstant() async -> Date {
        let (instant, floorToPersist) = advanceTrustedClock(
            deviceNow: deviceClock.now(), elapsed: monotonicClock.elapsed())
        if let floorToPersist { await persistFloor(floorToPersist) }
        return instant
    }

    /// The trusted instant at these clock readings, and the floor to persist when it has moved on far
    /// enough since it was last persisted.
    private func advanceTrustedClock(deviceNow: Date, elapsed: Duration) -> (instant: Date, floorToPersist: Date?) {
        let (instant, floorRose) = trustedClock.trustedInstant(deviceNow: deviceNow, elapsed: elapsed)
        guard floorRose, let floor = trustedClock.floor?.truncatedToMilliseconds,
            persistedFloor.map({ floor.timeIntervalSince($0) >= Self.floorPersistStep }) ?? true
        else { return (instant, nil) }
        persistedFloor = floor
        return (instant, floor)
    }

    /// Persists the floor in use at once when `answer`'s access differs from the previous answer's.
    private func persistFloorIfAccessChanged(_ answer: EntitlementSnapshot) async {
        let access = answer.activeEntitlementIds
        let changed = lastAccess.map { $0 != access } ?? false
        lastAccess = access
        guard changed, let floor = trustedClock.floor?.truncatedToMilliseconds,
            persistedFloor.map({ floor > $0 }) ?? true
        else { return }
        persistedFloor = floor
        await persistFloor(floor)
    }

    private func persistFloor(_ floor: Date) async {
        do {
            try await cache.storeTrustedFloor(floor)
        } catch {
            logger.log(.warning, "the cache could not store the trusted floor (\(error.code))")
        }
    }

    private func emptySnapshot(for id: String, at instant: Date) -> EntitlementSnapshot {
        EntitlementSnapshot(provider: provider.provider, appUserId: id, evaluatedAt: instant)
    }

    private static func validate(_ id: String) throws(EntitlementClientError) {
        if let reason = AppUserIdCheck(id).backendRefusal {
            throw EntitlementClientError(.invalidAppUserId, "the app user id \(reason)")
        }
    }
}
