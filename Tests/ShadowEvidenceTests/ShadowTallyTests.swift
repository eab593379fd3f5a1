import EntitlementKit
import Foundation
import Testing

/// swap.md: a comparison is an agreed or disagreed report; the access-difference rate is the disagreed
/// reports with an access difference over comparisons; tallies merge; the tally persists in the cache
/// directory across launches.
@Suite("Shadow tallies add up, across reports, devices and launches", .timeLimit(.minutes(5)))
struct ShadowTallyTests {
    static let revenueCat = ProviderID(rawValue: "revenuecat")
    static let adapty = ProviderID(rawValue: "adapty")

    static func report(_ outcome: ShadowReport.Outcome, serving: ProviderID = revenueCat, shadow: ProviderID = adapty)
        -> ShadowReport
    {
        ShadowReport(
            appUserId: "alice", instant: Date(timeIntervalSince1970: 1_748_779_200), servingProvider: serving,
            shadowProvider: shadow, outcome: outcome)
    }

    static let accessDiff = SnapshotDiff(accessDifferences: [
        AccessDifference(entitlementId: "premium", activeInA: true, activeInB: false)
    ])
    static let fieldDiff = SnapshotDiff(fieldDifferences: [
        FieldDifference(entitlementId: "premium", field: .renewState, a: .string("willRenew"), b: .string("cancelled"))
    ])

    final class CacheDirectory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ShadowTallyTests-" + UUID().uuidString, isDirectory: true)
        deinit { try? FileManager.default.removeItem(at: url) }
        func open() throws -> DirectoryEntitlementCache { try DirectoryEntitlementCache(directory: url) }
    }

    @Test func onlyAgreedAndDisagreedReportsAreComparisonsAndTheRateCountsAccessDifferencesOnly() {
        var summary = ShadowReportSummary()
        let offline = EntitlementClientError(.offline, "x")
        let outcomes: [ShadowReport.Outcome] = [
            .agreed, .agreed, .disagreed(Self.accessDiff), .disagreed(Self.fieldDiff), .shadowTimedOut,
            .shadowFailed(offline), .writeFailed(.logIn, offline), .skipped(.anonymous),
        ]
        for outcome in outcomes { summary.add(ShadowReportRecord(Self.report(outcome))) }
        #expect(summary.reports == 8)
        #expect(summary.tally.comparisons == 4)
        #expect(summary.tally.accessDifferenceRate == 0.25, "1 access difference in 4 comparisons")
        #expect(summary.tally.failures == 3)
        #expect(summary.tally.skipped == 1)
        #expect(summary.shadowFailed == 1 && summary.shadowTimedOut == 1 && summary.writeFailed == 1)
    }

    @Test func noComparisonsIsARateOfZeroButNoGate() {
        let tally = ShadowTally()
        #expect(tally.accessDifferenceRate == 0)
        #expect(!tally.holds(minimumComparisons: 1, maximumAccessDifferenceRate: 1))
    }

    @Test func theGateNeedsBothBounds() {
        var tally = ShadowTally()
        tally.agreed = 999
        tally.accessDifferences = 1
        #expect(tally.holds(minimumComparisons: 1000, maximumAccessDifferenceRate: 0.001))
        #expect(!tally.holds(minimumComparisons: 1001, maximumAccessDifferenceRate: 0.001))
        #expect(!tally.holds(minimumComparisons: 1000, maximumAccessDifferenceRate: 0.0009))
    }

    @Test func talliesMergeCountByCount() {
        var a = ShadowTally()
        a.agreed = 1
        a.accessDifferences = 2
        a.fieldDifferences = 3
        a.failures = 4
        a.skipped = 5
        var b = ShadowTally()
        b.agreed = 10
        b.accessDifferences = 20
        b.fieldDifferences = 30
        b.failures = 40
        b.skipped = 50
        let sum = a + b
        #expect(
            [sum.agreed, sum.accessDifferences, sum.fieldDifferences, sum.failures, sum.skipped] as [Int] == [
                11, 22, 33, 44, 55,
            ])
    }

    @Test func summariesMergeAndRankDisagreements() {
        var a = ShadowReportSummary()
        a.add(ShadowReportRecord(Self.report(.disagreed(Self.accessDiff))))
        a.add(ShadowReportRecord(Self.report(.disagreed(Self.fieldDiff))))
        var b = ShadowReportSummary()
        b.add(ShadowReportRecord(Self.report(.disagreed(Self.fieldDiff))))
        b.add(
            ShadowReportRecord(
                Self.report(
                    .disagreed(
                        SnapshotDiff(accessDifferences: [
                            AccessDifference(entitlementId: "gold", activeInA: true, activeInB: false),
                            AccessDifference(entitlementId: "premium", activeInA: true, activeInB: false),
                        ])))))
        let sum = a + b
        #expect(sum.reports == 4)
        #expect(sum.accessDisagreements.map { "\($0.entitlementId) \($0.reports)" } == ["premium 2", "gold 1"])
        #expect(
            sum.fieldDisagreements.map { "\($0.entitlementId).\($0.field ?? "") \($0.reports)" } == [
                "premium.renewState 2"
            ])
    }

    @Test func theTallyPersistsAcrossLaunchesPerPairOfBackends() async throws {
        let directory = CacheDirectory()
        let first = ShadowTallyStore(cache: try directory.open())
        try await first.record(Self.report(.agreed))
        try await first.record(Self.report(.disagreed(Self.accessDiff)))
        try await first.record(Self.report(.agreed, serving: Self.adapty, shadow: Self.revenueCat))

        let relaunched = ShadowTallyStore(cache: try directory.open())
        let tally = await relaunched.tally(serving: Self.revenueCat, shadow: Self.adapty)
        #expect(tally.agreed == 1 && tally.accessDifferences == 1 && tally.comparisons == 2)
        #expect(
            await relaunched.tally(serving: Self.adapty, shadow: Self.revenueCat).agreed == 1,
            "the roll-back window's evidence is kept apart")
        try await relaunched.record(Self.report(.skipped(.anonymous)))
        #expect(await first.tally(serving: Self.revenueCat, shadow: Self.adapty).skipped == 1)
        try await relaunched.removeAll()
        #expect(await first.tally(serving: Self.revenueCat, shadow: Self.adapty) == ShadowTally())
    }

    @Test func twoProcessesRecordingAtOnceLoseNoCount() async throws {
        let directory = CacheDirectory()
        let cache = try directory.open()
        // Two stores stand for an app and its extension: each read-modify-write holds the directory's lock.
        let stores = [ShadowTallyStore(cache: cache), ShadowTallyStore(cache: cache)]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask {
                    for _ in 0..<40 { try await store.record(Self.report(.agreed)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(await stores[0].tally(serving: Self.revenueCat, shadow: Self.adapty).agreed == 80)
    }

    @Test func aDamagedFileIsAnEmptyTallyNeverAnInventedOne() async throws {
        let directory = CacheDirectory()
        let store = ShadowTallyStore(cache: try directory.open())
        for _ in 0..<3 { try await store.record(Self.report(.agreed)) }
        let file = directory.url.appendingPathComponent(ShadowTallyStore.fileName)
        var bytes = [UInt8](try Data(contentsOf: file))
        let digit = try #require(bytes.lastIndex(of: UInt8(ascii: "3")))
        bytes[digit] = UInt8(ascii: "9")  // 3 agreed becomes 9: still JSON, but the seal no longer matches
        try Data(bytes).write(to: file)
        #expect(await store.tally(serving: Self.revenueCat, shadow: Self.adapty) == ShadowTally())
        try await store.record(Self.report(.agreed))
        #expect(await store.tally(serving: Self.revenueCat, shadow: Self.adapty).agreed == 1)
    }
}
