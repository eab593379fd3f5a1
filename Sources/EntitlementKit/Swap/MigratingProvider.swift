import Foundation

/// Two backends side by side: the app keeps answering from one while the other runs in the shadow, every
/// answer is compared, and the app cuts over (and back) by swapping the two.
///
/// ```swift
/// let provider = MigratingProvider(
///     serving: revenueCat, shadow: qonversion,
///     policy: .serving,                                   // or .eitherGrants
///     comparison: SnapshotDiff.Options(expiryTolerance: 60),
///     shadowTimeout: .seconds(2))                         // the default
/// let client = try await EntitlementClient(provider: provider, cache: cache)
/// for await report in provider.reports { log(report) }   // one ShadowReport per comparison
/// let tally = await provider.tally                         // running totals
/// ```
///
/// It is an ``EntitlementProvider``, so ``EntitlementClient`` (cache, trusted instant, identity, updates)
/// works on it unchanged.
///
/// - **Reads** ask both backends at once. The shadow's answer is awaited at most `shadowTimeout` after the
///   serving backend answered; the served answer is never held longer, and (under ``Policy/serving``) the
///   shadow's failure or lateness never fails it. The serving backend's failure fails the read as it would
///   without the shadow (the client then answers from its cache).
/// - **Writes** (log-in, restore / sync, purchase) go to the serving backend, then to the shadow with the
///   same input, so the new backend hears of every purchase during the window; the shadow's failure is
///   reported, never thrown. The shadow's write is awaited at most `shadowTimeout`, as a read's answer is;
///   a later one goes on in the background (its failure reported when it comes; the shadow's writes reach
///   it in order), so a stalled shadow never holds up a purchase. Under ``Policy/eitherGrants`` a restore
///   or purchase answers with the merge of both answers, or with the shadow's when the serving backend
///   failed; a logIn the serving backend refuses is thrown under either policy.
/// - **Identity**: one app user id for both, in the serving backend's form. While the customer is anonymous
///   the shadow's answers are not asked for or compared (two backends cannot know the same anonymous person):
///   `skipped(anonymous)`. But the shadow still hears of an anonymous customer's writes (purchase, restore,
///   sync) under the anonymous id of its own form that the client keeps in the shadow's part of its cache,
///   and a log-in from an anonymous customer reaches the shadow from that same id: what is bought while
///   anonymous survives a cut-over and a roll-back.
/// - **Cut-over and roll-back** are a configuration change: `MigratingProvider(serving: new, shadow: old)`.
///   The provider answers as its serving backend (``provider``, ``makeAnonymousAppUserId()``), so the
///   client's cached answers are the serving backend's. The client keeps the stored app user id and the
///   trusted-instant floor in both backends' parts of its cache, so the swapped configuration (and the new
///   backend alone, once the old one is retired) starts with the customer the device last had; an id in
///   the old backend's anonymous form is not taken up (a new anonymous id of the serving backend's is).
public actor MigratingProvider: EntitlementProvider {
    /// Which answer the app gets.
    public enum Policy: Sendable, Hashable {
        /// The serving backend's answer; the shadow is compared and never changes it.
        case serving
        /// Access when either backend grants it (the union; see ``MigratingProvider``); a failure of one
        /// still answers from the other. The safe window around a cut-over.
        case eitherGrants
    }

    /// How many reports a ``reports`` stream keeps for a reader that has not taken them (the newest).
    public static let reportBufferLimit = 256

    /// The backend whose answer the app gets.
    public nonisolated let serving: any EntitlementProvider
    /// The backend asked and compared in the shadow.
    public nonisolated let shadow: any EntitlementProvider
    /// Which answer the app gets.
    public nonisolated let policy: Policy
    /// How answers are compared (expiry tolerance, fields).
    public nonisolated let comparison: SnapshotDiff.Options
    /// How long the shadow's answer is awaited after the serving backend answered.
    public nonisolated let shadowTimeout: Duration

    private nonisolated let clock: any Clock<Duration>
    private nonisolated let wallClock: any WallClock
    private nonisolated let broadcaster = ShadowReportBroadcaster(bufferLimit: MigratingProvider.reportBufferLimit)
    private var totals = ShadowTally()
    /// The shadow's newest write: the next one waits for it, so the shadow hears of them in order.
    private var lastShadowWrite: Task<Void, Never>?
    /// For each anonymous customer of the serving backend's, the anonymous id of the shadow's form the shadow
    /// knows the same person by: as the client's cache pairs them (``CutOverCache``), else made here.
    private var shadowAnonymousIds: [AppUserIdKey: String] = [:]

    /// A provider that serves `serving` and compares `shadow`.
    ///
    /// - Parameters:
    ///   - clock: measures the shadow timeout (tests pass a clock they move by hand).
    ///   - wallClock: stamps reports with their ``ShadowReport/instant``.
    public init(
        serving: any EntitlementProvider, shadow: any EntitlementProvider, policy: Policy = .serving,
        comparison: SnapshotDiff.Options = SnapshotDiff.Options(), shadowTimeout: Duration = .seconds(2),
        clock: any Clock<Duration> = ContinuousClock(), wallClock: any WallClock = SystemClock()
    ) {
        self.serving = serving
        self.shadow = shadow
        self.policy = policy
        self.comparison = comparison
        self.shadowTimeout = shadowTimeout
        self.clock = clock
        self.wallClock = wallClock
    }

    deinit {
        broadcaster.finish()
    }

    /// Every report from now on, one per comparison, skip or failure. Each access makes a new stream; each
    /// keeps the newest ``reportBufferLimit`` reports its reader has not taken, and ends when the provider is
    /// released.
    public nonisolated var reports: AsyncStream<ShadowReport> {
        broadcaster.makeStream()
    }

    /// Running totals of every report so far.
    public var tally: ShadowTally { totals }

    // MARK: EntitlementProvider

    /// The serving backend's id: the client's cache and the merged snapshots answer as it.
    public nonisolated var provider: ProviderID { serving.provider }

    /// The serving backend's namespace: the client's entries are the serving backend's, before and after a
    /// cut-over to it alone (``EntitlementClient`` also keeps the stored id and floor in the shadow's).
    public nonisolated var storageNamespace: String { serving.storageNamespace }

    /// The shadow backend's namespace: the client keeps the customer in its part too.
    public nonisolated var shadowStorageNamespace: String? { shadow.storageNamespace }

    /// An anonymous id in the serving backend's form.
    public nonisolated func makeAnonymousAppUserId() -> String {
        serving.makeAnonymousAppUserId()
    }

    /// Whether the serving backend considers `appUserId` anonymous.
    public nonisolated func isAnonymous(_ appUserId: String) -> Bool {
        serving.isAnonymous(appUserId)
    }

    /// The serving backend's change signals: the app's answers are the serving backend's.
    public nonisolated func makeChangeSignals() -> AsyncStream<Void>? {
        serving.makeChangeSignals()
    }

    /// Both backends' answers, compared; the served (or merged) one is returned.
    public func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        let serving = serving
        return try await read(
            appUserId,
            serving: { () throws(EntitlementClientError) in
                ValidatedSnapshot(snapshot: try await serving.snapshot(for: appUserId))
            },
            shadow: { (provider) throws(EntitlementClientError) in try await provider.snapshot(for: appUserId) }
        ).snapshot
    }

    /// Both backends' answers, compared, the serving backend's read conditional on `cached`. Under
    /// ``Policy/serving`` the client's cached answer is the serving backend's own, so its validator is
    /// offered to it and the one it answers with is kept; under ``Policy/eitherGrants`` the cached answer
    /// may be a merge, so no validator is offered or kept.
    public func snapshot(for appUserId: String, revalidating cached: ValidatedSnapshot?)
        async throws(EntitlementClientError) -> ValidatedSnapshot
    {
        let serving = serving
        let offered = policy == .serving ? cached : nil
        return try await read(
            appUserId,
            serving: { () throws(EntitlementClientError) in
                try await serving.snapshot(for: appUserId, revalidating: offered)
            },
            shadow: { (provider) throws(EntitlementClientError) in try await provider.snapshot(for: appUserId) })
    }

    /// Logs in on the serving backend, then on the shadow (see ``MigratingProvider`` for how long the shadow
    /// is awaited). The serving backend's refusal is thrown under either policy.
    public func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        // The shadow knows an anonymous customer by its own anonymous id: the log-in links that one, which
        // heard of what the customer bought while anonymous.
        let shadowFrom = shadowAppUserId(for: currentAppUserId)
        // Never answered by the shadow, whatever the policy: the customer changes only when the serving
        // backend linked the ids (else what they bought anonymously would be left behind).
        let result = try await serving.logIn(from: currentAppUserId, to: newAppUserId)
        let snapshot = try await write(
            .logIn, for: newAppUserId, shadowAppUserId: shadowFrom, served: .success(result.snapshot)
        ) { (provider, _) throws(EntitlementClientError) in
            try await provider.logIn(from: shadowFrom, to: newAppUserId).snapshot
        }
        return LogInResult(snapshot: snapshot, created: result.created)
    }

    /// Sends the receipt to the serving backend, then to the shadow.
    public func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await write(.syncPurchases, for: appUserId) { (provider, id) throws(EntitlementClientError) in
            try await provider.syncPurchases(receipt, for: id)
        }
    }

    /// Reports the purchase to the serving backend, then to the shadow.
    public func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await write(.reportPurchase, for: appUserId) { (provider, id) throws(EntitlementClientError) in
            try await provider.reportPurchase(purchase, for: id)
        }
    }

    // MARK: Reads

    private typealias Answer = Result<EntitlementSnapshot, EntitlementClientError>

    private func read(
        _ appUserId: String,
        serving askServing: @Sendable () async throws(EntitlementClientError) -> ValidatedSnapshot,
        shadow ask:
            @escaping @Sendable (any EntitlementProvider) async throws(EntitlementClientError) -> EntitlementSnapshot
    ) async throws(EntitlementClientError) -> ValidatedSnapshot {
        if serving.isAnonymous(appUserId) {
            record(appUserId, .skipped(.anonymous))
            return try await askServing()
        }
        let shadowProvider = shadow
        let shadowTask = Task {
            await Self.answer { () throws(EntitlementClientError) in try await ask(shadowProvider) }
        }
        let served: Result<ValidatedSnapshot, EntitlementClientError>
        do {
            served = .success(try await askServing())
        } catch {
            served = .failure(error)
        }
        if case .failure(let error) = served, policy == .serving {
            // Fails as it would without the shadow, and no later.
            shadowTask.cancel()
            throw error
        }
        let shadowAnswer = await ShadowWait.first(of: shadowTask, within: shadowTimeout, on: clock)

        switch (served, shadowAnswer) {
        case (.success(let a), .some(.success(let b))):
            record(appUserId, Self.compare(a.snapshot, b, options: comparison))
            guard policy == .eitherGrants else { return a }
            // A merge is no one backend's answer: it has no validator.
            return ValidatedSnapshot(snapshot: SnapshotMerge.eitherGrants(served: a.snapshot, shadow: b))
        case (.success(let a), .some(.failure(let error))):
            record(appUserId, .shadowFailed(error))
            return a
        case (.success(let a), nil):
            record(appUserId, .shadowTimedOut)
            return a
        case (.failure(let error), .some(.success(let b))):
            // The serving backend failed: under eitherGrants the shadow answers, as the serving backend.
            guard policy == .eitherGrants else { throw error }
            var answer = b
            answer.provider = serving.provider
            return ValidatedSnapshot(snapshot: answer)
        case (.failure(let error), _):
            throw error
        }
    }

    private static func compare(_ a: EntitlementSnapshot, _ b: EntitlementSnapshot, options: SnapshotDiff.Options)
        -> ShadowReport.Outcome
    {
        // Both at the served instant, so an expiry between the two answers is no difference.
        let diff = SnapshotDiff(a, b.evaluated(at: a.evaluatedAt), options: options)
        return diff.isEmpty ? .agreed : .disagreed(diff)
    }

    private static func answer(
        _ body: @Sendable () async throws(EntitlementClientError) -> EntitlementSnapshot
    ) async -> Answer {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    // MARK: Writes

    /// Which anonymous id of the shadow's form goes with the serving backend's anonymous id `appUserId` (the
    /// client's cache tells it at every change of customer; see ``CutOverCache``).
    func pairAnonymousAppUserId(_ appUserId: String, withShadows shadowAppUserId: String) {
        shadowAnonymousIds[AppUserIdKey(appUserId)] = shadowAppUserId
    }

    /// The id the shadow knows the customer `appUserId` by: the same id, or for an anonymous customer of the
    /// serving backend's, the anonymous id of the shadow's form paired with it (made now when none is).
    private func shadowAppUserId(for appUserId: String) -> String {
        guard serving.isAnonymous(appUserId), !shadow.isAnonymous(appUserId) else { return appUserId }
        if let paired = shadowAnonymousIds[AppUserIdKey(appUserId)] { return paired }
        let made = shadow.makeAnonymousAppUserId()
        shadowAnonymousIds[AppUserIdKey(appUserId)] = made
        return made
    }

    /// `send` to the serving backend as `appUserId`, then to the shadow as the id it knows the customer by
    /// (see the other `write`).
    private func write(
        _ action: ShadowReport.WriteAction, for appUserId: String,
        _ send:
            @escaping @Sendable (any EntitlementProvider, String) async throws(EntitlementClientError)
            -> EntitlementSnapshot
    ) async throws(EntitlementClientError) -> EntitlementSnapshot {
        let serving = serving
        let shadowId = shadowAppUserId(for: appUserId)
        let served = await Self.answer { () throws(EntitlementClientError) in try await send(serving, appUserId) }
        return try await write(action, for: appUserId, shadowAppUserId: shadowId, served: served, send)
    }

    /// The write sent to the shadow (as `shadowAppUserId`) after the serving backend's `served` answer, awaited
    /// as a read's shadow is (at most `shadowTimeout`; a later one goes on, and its failure is reported when it
    /// comes), and the answer: under ``Policy/serving`` the serving backend's (its failure thrown, the shadow
    /// not asked); under ``Policy/eitherGrants`` the merge of both, or the shadow's when the serving backend
    /// failed. An anonymous customer's write still reaches the shadow, under the shadow's anonymous id, so
    /// what they buy survives a cut-over and a roll-back; its answer is the serving backend's alone (the two
    /// answers are two anonymous people's, never compared or merged).
    private func write(
        _ action: ShadowReport.WriteAction, for appUserId: String, shadowAppUserId: String, served: Answer,
        _ send:
            @escaping @Sendable (any EntitlementProvider, String) async throws(EntitlementClientError)
            -> EntitlementSnapshot
    ) async throws(EntitlementClientError) -> EntitlementSnapshot {
        let isAnonymous = action != .logIn && serving.isAnonymous(appUserId)
        if case .failure(let error) = served, policy == .serving || isAnonymous { throw error }
        let shadowProvider = shadow
        // One at a time, in the order sent: a write still running past the timeout (a logIn) must reach the
        // shadow before the next one (a purchase for the customer it created).
        let previous = lastShadowWrite
        let sent = Task {
            await previous?.value
            return await Self.answer { () throws(EntitlementClientError) in
                try await send(shadowProvider, shadowAppUserId)
            }
        }
        lastShadowWrite = Task { _ = await sent.value }
        let shadowAnswer = await ShadowWait.first(of: sent, within: shadowTimeout, on: clock, cancellingLate: false)
        switch shadowAnswer {
        case .some(.failure(let error)):
            record(appUserId, .writeFailed(action, error))
        case nil:
            Task { [weak self] in
                if case .failure(let error) = await sent.value {
                    await self?.record(appUserId, .writeFailed(action, error))
                }
            }
        case .some(.success):
            break
        }
        switch (served, shadowAnswer) {
        case (.success(let a), _) where isAnonymous:
            return a
        case (.success(let a), .some(.success(let b))) where policy == .eitherGrants:
            return SnapshotMerge.eitherGrants(served: a, shadow: b)
        case (.success(let a), _):
            return a
        case (.failure, .some(.success(var b))):
            // Only under eitherGrants: the shadow answers, as the serving backend.
            b.provider = serving.provider
            return b
        case (.failure(let error), _):
            throw error
        }
    }

    // MARK: Reports

    private func record(_ appUserId: String, _ outcome: ShadowReport.Outcome) {
        totals.count(outcome)
        broadcaster.publish(
            ShadowReport(
                appUserId: appUserId, instant: wallClock.now(), servingProvider: serving.provider,
                shadowProvider: shadow.provider, outcome: outcome))
    }
}
