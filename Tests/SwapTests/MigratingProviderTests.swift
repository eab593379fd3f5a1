import EntitlementKit
import Foundation
import Testing

@Suite("MigratingProvider: shadow mode and cut-over (swap.md)", .timeLimit(.minutes(5)))
struct MigratingProviderTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let later = now.addingTimeInterval(86_400 * 30)
    static let soon = now.addingTimeInterval(86_400)

    static func entitlement(_ id: String, expires: Date?, revoked: Bool = false, product: String = "p") -> Entitlement {
        Entitlement(
            id: id, productId: product, renewState: .willRenew, expirationDate: expires,
            denial: revoked ? Denial(.refunded) : nil, at: now)
    }

    /// Two backends, RevenueCat serving and Qonversion in the shadow, on a clock the test moves.
    static func pair(policy: MigratingProvider.Policy = .serving)
        -> (ScriptedProvider, ScriptedProvider, MigratingProvider, ManualClock)
    {
        let a = ScriptedProvider("revenuecat", at: now)
        let b = ScriptedProvider("qonversion", at: now)
        let clock = ManualClock()
        let provider = MigratingProvider(
            serving: a, shadow: b, policy: policy, comparison: SnapshotDiff.Options(expiryTolerance: 60),
            shadowTimeout: .seconds(2), clock: clock)
        return (a, b, provider, clock)
    }

    /// The next report on `stream`, within a bounded number of yields.
    static func next(_ iterator: inout AsyncStream<ShadowReport>.Iterator) async -> ShadowReport? {
        await iterator.next()
    }

    @Test func underServingTheServingBackendsValidatorIsOfferedAndKept() async throws {
        let (a, b, provider, _) = Self.pair()
        let cached = ValidatedSnapshot(
            snapshot: EntitlementSnapshot(provider: .revenueCat, appUserId: "alice", evaluatedAt: Self.now),
            validator: "v1")
        let answer = try await provider.snapshot(for: "alice", revalidating: cached)
        #expect(answer.validator == "v-revenuecat")
        #expect(a.callLog == ["revalidate alice v1"])
        #expect(b.callLog == ["snapshot alice"])  // the shadow is never offered the serving backend's token
    }

    @Test func underEitherGrantsAMergedAnswerHasNoValidatorAndNoneIsOffered() async throws {
        let (a, b, provider, _) = Self.pair(policy: .eitherGrants)
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .answer([Self.entitlement("pro", expires: Self.later)]))
        let cached = ValidatedSnapshot(
            snapshot: EntitlementSnapshot(provider: .revenueCat, appUserId: "alice", evaluatedAt: Self.now),
            validator: "v1")
        let answer = try await provider.snapshot(for: "alice", revalidating: cached)
        #expect(answer.validator == nil)
        #expect(answer.snapshot.activeEntitlementIds.sorted() == ["premium", "pro"])
        #expect(a.callLog == ["revalidate alice none"])
    }

    @Test func agreeingBackendsAreReportedAsAgreedAndTheServedAnswerIsTheServingOnes() async throws {
        let (a, b, provider, _) = Self.pair()
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later.addingTimeInterval(30))]))
        var reports = provider.reports.makeAsyncIterator()
        let snapshot = try await provider.snapshot(for: "alice")
        #expect(snapshot.provider == .revenueCat)
        #expect(snapshot.isActive("premium"))
        let report = try #require(await Self.next(&reports))
        #expect(report.outcome == .agreed, "30 s apart is within the 60 s tolerance")
        #expect(report.description == "agreed")
        #expect(report.appUserId == "alice")
        #expect(report.servingProvider == .revenueCat && report.shadowProvider == .qonversion)
        #expect(await provider.tally.agreed == 1)
    }

    @Test func aDisagreementIsReportedInWordsAndNeverChangesTheServedAnswer() async throws {
        let (a, b, provider, _) = Self.pair()
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.now.addingTimeInterval(-60))]))
        var reports = provider.reports.makeAsyncIterator()
        let snapshot = try await provider.snapshot(for: "alice")
        #expect(snapshot.isActive("premium"), "under .serving the shadow never changes the answer")
        let report = try #require(await Self.next(&reports))
        guard case .disagreed(let diff) = report.outcome else {
            Issue.record("expected a disagreement, got \(report)")
            return
        }
        #expect(diff.hasAccessDifferences)
        #expect(report.description.hasPrefix("disagreed: premium active on revenuecat, inactive on qonversion"))
        #expect(!report.description.contains("alice"), "a report's text names no customer")
        let tally = await provider.tally
        #expect(tally.accessDifferences == 1 && tally.agreed == 0 && tally.comparisons == 1)
    }

    @Test func aFieldDifferenceIsCountedApartFromAccess() async throws {
        let (a, b, provider, _) = Self.pair()
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later.addingTimeInterval(3600))]))
        _ = try await provider.snapshot(for: "alice")
        let tally = await provider.tally
        #expect(tally.fieldDifferences == 1 && tally.accessDifferences == 0)
    }

    @Test func aFailingShadowIsReportedNotThrown() async throws {
        let (a, b, provider, _) = Self.pair()
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .fail(.offline))
        var reports = provider.reports.makeAsyncIterator()
        let snapshot = try await provider.snapshot(for: "alice")
        #expect(snapshot.isActive("premium"))
        let report = try #require(await Self.next(&reports))
        #expect(report.outcome == .shadowFailed(EntitlementClientError(.offline, "scripted failure of qonversion")))
        #expect(report.description.hasPrefix("shadowFailed: qonversion: offline"))
        #expect(await provider.tally.failures == 1)
    }

    @Test func theServingBackendsFailureFailsTheReadAsWithoutTheShadow() async throws {
        let (a, b, provider, _) = Self.pair()
        a.script("alice", .fail(.backendUnavailable))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        await #expect(throws: EntitlementClientError.self) { try await provider.snapshot(for: "alice") }
    }

    @Test func aHangingShadowHoldsTheServedAnswerNoLongerThanTheTimeout() async throws {
        let (a, b, provider, clock) = Self.pair()
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .hang)
        var reports = provider.reports.makeAsyncIterator()
        let read = Task { try await provider.snapshot(for: "alice") }
        // The served answer is in; the provider now waits for the shadow on the clock.
        #expect(await clock.waitForSleeper(), "the provider never started the shadow timeout")
        clock.advance(by: .milliseconds(1999))
        #expect(clock.sleeperCount == 1, "still within the timeout")
        clock.advance(by: .milliseconds(1))
        let snapshot = try await read.value
        #expect(snapshot.isActive("premium"))
        let report = try #require(await Self.next(&reports))
        #expect(report.outcome == .shadowTimedOut)
        #expect(await provider.tally.failures == 1)
        b.release()
    }

    @Test func aLateShadowWithinTheTimeoutIsStillCompared() async throws {
        let (a, b, provider, clock) = Self.pair()
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .hang)
        var reports = provider.reports.makeAsyncIterator()
        let read = Task { try await provider.snapshot(for: "alice") }
        #expect(await clock.waitForSleeper())
        clock.advance(by: .seconds(1))
        b.release()  // the shadow answers (nothing active) one second after the served answer
        _ = try await read.value
        let report = try #require(await Self.next(&reports))
        guard case .disagreed = report.outcome else {
            Issue.record("a late shadow within the timeout must be compared: \(report)")
            return
        }
    }

    @Test func anAnonymousCustomerIsNotAskedInTheShadow() async throws {
        let (a, b, provider, _) = Self.pair()
        var reports = provider.reports.makeAsyncIterator()
        let anonymous = provider.makeAnonymousAppUserId()
        #expect(anonymous == a.makeAnonymousAppUserId(), "the serving backend's form")
        _ = try await provider.snapshot(for: anonymous)
        #expect(b.callLog.isEmpty)
        let report = try #require(await Self.next(&reports))
        #expect(report.outcome == .skipped(.anonymous))
        #expect(report.description == "skipped: anonymous")
        #expect(await provider.tally.skipped == 1)
    }

    @Test func writesReachBothBackendsAndAShadowFailureIsReportedNotThrown() async throws {
        let (a, b, provider, _) = Self.pair()
        let receipt = StoreReceipt(store: .appStore, token: "receipt-1")
        _ = try await provider.logIn(from: "$anon:revenuecat", to: "alice")
        _ = try await provider.syncPurchases(receipt, for: "alice")
        _ = try await provider.reportPurchase(StorePurchase(receipt: receipt, productId: "pro"), for: "alice")
        let writes = ["sync receipt-1 alice", "purchase pro alice"]
        #expect(a.callLog == ["logIn $anon:revenuecat alice"] + writes)
        #expect(b.callLog == ["logIn $anon:qonversion alice"] + writes, "the new backend hears of every purchase")

        b.script("bob", .fail(.backendUnavailable))
        var reports = provider.reports.makeAsyncIterator()
        let snapshot = try await provider.syncPurchases(receipt, for: "bob")
        #expect(snapshot.provider == .revenueCat)
        let report = try #require(await Self.next(&reports))
        #expect(
            report.outcome
                == .writeFailed(
                    .syncPurchases, EntitlementClientError(.backendUnavailable, "scripted failure of qonversion")))
        #expect(report.description.hasPrefix("writeFailed: syncPurchases on qonversion: backendUnavailable"))
    }

    @Test func aLogInFromAnIdentifiedCustomerReachesTheShadowAsItIs() async throws {
        let (a, b, provider, _) = Self.pair()
        _ = try await provider.logIn(from: "alice", to: "bob")
        #expect(a.callLog == ["logIn alice bob"])
        #expect(b.callLog == ["logIn alice bob"])
    }

    @Test func aHangingShadowHoldsAWriteNoLongerThanTheTimeoutAndStillHearsOfIt() async throws {
        let (_, b, provider, clock) = Self.pair()
        b.script("alice", .hang)
        let receipt = StoreReceipt(store: .appStore, token: "receipt-1")
        let write = Task { try await provider.syncPurchases(receipt, for: "alice") }
        #expect(await clock.waitForSleeper(), "the write never started the shadow timeout")
        clock.advance(by: .seconds(2))
        // Bounded: without the timeout the write would wait for the shadow until it is released below.
        let answered = Flag()
        Task {
            _ = try? await write.value
            answered.raise()
        }
        for _ in 0..<100_000 where !answered.isRaised { await Task.yield() }
        #expect(answered.isRaised, "a stalled shadow must not hold up a purchase past the timeout")
        b.release()
        #expect(try await write.value.provider == .revenueCat)
        #expect(b.callLog == ["sync receipt-1 alice"], "the shadow was still sent the write")
    }

    @Test func underEitherGrantsAWriteTheServingBackendRefusesIsAnsweredByTheShadow() async throws {
        let (a, b, provider, _) = Self.pair(policy: .eitherGrants)
        a.script("alice", .fail(.backendUnavailable))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        let receipt = StoreReceipt(store: .appStore, token: "receipt-1")
        let snapshot = try await provider.syncPurchases(receipt, for: "alice")
        #expect(snapshot.provider == .revenueCat, "answered as the serving backend")
        #expect(snapshot.isActive("premium"))
        #expect(b.callLog == ["sync receipt-1 alice"])

        let (servingA, servingB, servingOnly, _) = Self.pair(policy: .serving)
        servingA.script("alice", .fail(.backendUnavailable))
        await #expect(throws: EntitlementClientError.self) {
            try await servingOnly.syncPurchases(receipt, for: "alice")
        }
        #expect(servingB.callLog.isEmpty, "under .serving the write fails as it would without the shadow")
    }

    @Test func underEitherGrantsAWriteAnswersWithTheUnion() async throws {
        let (a, b, provider, _) = Self.pair(policy: .eitherGrants)
        a.script("alice", .answer([Self.entitlement("basic", expires: Self.later)]))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        let purchase = StorePurchase(receipt: StoreReceipt(store: .appStore, token: "r"), productId: "pro")
        let snapshot = try await provider.reportPurchase(purchase, for: "alice")
        #expect(snapshot.activeEntitlementIds == ["basic", "premium"])
    }

    @Test func reportStreamsEndWhenTheProviderIsReleased() async throws {
        var provider: MigratingProvider? = Self.pair().2
        let stream = provider?.reports
        provider = nil
        let ended = Flag()
        Task {
            if let stream {
                for await _ in stream {}
            }
            ended.raise()
        }
        // Bounded: a stream that never ends makes this fail, not hang.
        for _ in 0..<100_000 where !ended.isRaised { await Task.yield() }
        #expect(ended.isRaised)
    }

    @Test func aLogInTheServingBackendRefusesIsThrownEvenUnderEitherGrants() async throws {
        let (a, b, provider, _) = Self.pair(policy: .eitherGrants)
        a.script("bob", .fail(.backendUnavailable))
        await #expect(throws: EntitlementClientError.self) { try await provider.logIn(from: "alice", to: "bob") }
        #expect(b.callLog.isEmpty, "the customer did not change: the shadow is not told")
    }

    @Test func theShadowHearsOfWritesInTheOrderSentEvenPastTheTimeout() async throws {
        let (_, b, provider, clock) = Self.pair()
        b.script("bob", .hang)
        let logIn = Task { try await provider.logIn(from: "alice", to: "bob") }
        #expect(await clock.waitForSleeper())
        clock.advance(by: .seconds(2))
        _ = try await logIn.value  // answered; the shadow's logIn still hangs
        let receipt = StoreReceipt(store: .appStore, token: "receipt-1")
        let sync = Task { try await provider.syncPurchases(receipt, for: "bob") }
        #expect(await clock.waitForSleeper())
        for _ in 0..<10_000 where b.callLog.count < 2 { await Task.yield() }
        #expect(b.callLog == ["logIn alice bob"], "the sync waits for the logIn the shadow has not answered")
        b.release()
        clock.advance(by: .seconds(2))
        _ = try await sync.value
        for _ in 0..<100_000 where b.callLog.count < 2 { await Task.yield() }
        #expect(b.callLog == ["logIn alice bob", "sync receipt-1 bob"])
    }

    @Test func eitherGrantsIsTheUnionWithTheLongerGrantWinning() async throws {
        let (a, b, provider, _) = Self.pair(policy: .eitherGrants)
        a.script(
            "alice",
            .answer([
                Self.entitlement("onlyA", expires: Self.later),
                Self.entitlement("activeInB", expires: Self.now.addingTimeInterval(-1)),
                Self.entitlement("laterInB", expires: Self.soon, product: "a-product"),
                Self.entitlement("lifetimeInB", expires: Self.later),
                Self.entitlement("tie", expires: Self.later, product: "a-product"),
                Self.entitlement("laterInA", expires: Self.later, product: "a-product"),
            ]))
        b.script(
            "alice",
            .answer([
                Self.entitlement("onlyB", expires: Self.later),
                Self.entitlement("activeInB", expires: Self.later),
                Self.entitlement("laterInB", expires: Self.later, product: "b-product"),
                Self.entitlement("lifetimeInB", expires: nil),
                Self.entitlement("tie", expires: Self.later, product: "b-product"),
                Self.entitlement("laterInA", expires: Self.soon, product: "b-product"),
            ]))
        let merged = try await provider.snapshot(for: "alice")
        #expect(merged.provider == .revenueCat, "the merged snapshot answers as the serving backend")
        #expect(
            merged.activeEntitlementIds.sorted() == [
                "activeInB", "laterInA", "laterInB", "lifetimeInB", "onlyA", "onlyB", "tie",
            ])
        #expect(merged["laterInB"]?.productId == "b-product")
        #expect(merged["lifetimeInB"]?.expirationDate == nil, "no expiry beats any date")
        #expect(merged["tie"]?.productId == "a-product", "a tie keeps the serving backend's")
        #expect(merged["laterInA"]?.productId == "a-product")
    }

    @Test func eitherGrantsAnswersFromTheShadowWhenTheServingBackendFails() async throws {
        let (a, b, provider, _) = Self.pair(policy: .eitherGrants)
        a.script("alice", .fail(.offline))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        let snapshot = try await provider.snapshot(for: "alice")
        #expect(snapshot.isActive("premium"))
        #expect(snapshot.provider == .revenueCat)
    }

    @Test func eitherGrantsStillAnswersWhenTheShadowFails() async throws {
        let (a, b, provider, _) = Self.pair(policy: .eitherGrants)
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .fail(.offline))
        #expect(try await provider.snapshot(for: "alice").isActive("premium"))
    }

    @Test func theClientWorksUnchangedOnAMigratingProvider() async throws {
        let (a, b, provider, _) = Self.pair()
        a.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        let client = try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), appUserId: "alice")
        let check = await client.checkEntitlements()
        #expect(check.error == nil)
        #expect(check.snapshot?.provider == .revenueCat)
        #expect(b.callLog == ["snapshot alice"])
        #expect(await provider.tally.agreed == 1)
    }

    @Test func cuttingOverIsSwappingTheTwo() async throws {
        let a = ScriptedProvider("revenuecat", at: Self.now)
        let b = ScriptedProvider("qonversion", at: Self.now)
        b.script("alice", .answer([Self.entitlement("premium", expires: Self.later)]))
        let afterCutOver = MigratingProvider(serving: b, shadow: a)
        #expect(afterCutOver.provider == .qonversion)
        #expect(try await afterCutOver.snapshot(for: "alice").isActive("premium"))
    }

    @Test func theDefaultsAreTheContracts() {
        let a = ScriptedProvider("revenuecat", at: Self.now)
        let b = ScriptedProvider("qonversion", at: Self.now)
        let provider = MigratingProvider(serving: a, shadow: b)
        #expect(provider.shadowTimeout == .seconds(2))
        #expect(provider.policy == .serving)
    }
}

/// A flag one task raises and another polls.
final class Flag: @unchecked Sendable {
    // Guards `raised`.
    private let lock = NSLock()
    private var raised = false

    var isRaised: Bool { lock.withLock { raised } }

    func raise() {
        lock.withLock { raised = true }
    }
}
