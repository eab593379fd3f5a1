import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

/// Generated archives — the test kit's signed App Store notifications (a long subscription, a cancelled
/// and a refunded one, the app's receipt posted), Play documents with chained tokens, and many plain
/// records (statements replaced, account links that change, aliases joining threads) — shuffled, with
/// duplicates, through every store, whole and in two halves (the state kept between), compared snapshot
/// by snapshot with one in-memory replay in one pass.
@Suite("Every store replays generated archives as one in-memory pass does", .timeLimit(.minutes(3)))
struct StoreDifferentialTests {
    typealias Play = GooglePlayLedgerTests
    static let bundleId = "com.acme.trails"
    static let start = instant("2025-01-31T10:00:00Z")

    struct Archive {
        var sources: [any LedgerSource]
        var inputs: [LedgerInput]
        var appUserIds: [String]
        var instants: [Date]
    }

    /// The App Store part: three store accounts' purchases as Apple would notify them month by month.
    static func appStoreInputs(signer: AppStoreTestSigner) throws -> [LedgerInput] {
        let product = ScenarioProduct(
            id: "monthly",
            kind: .autoRenewable(period: ISODuration(months: 1), trial: nil, gracePeriod: ISODuration("P16D")),
            entitlements: ["premium"])
        let store = SimulatedStore(products: [product], start: start)
        let notifications = SimulatedServerNotifications(store: store, bundleId: bundleId, signer: signer, seed: 5)
        let accounts = ["apple-long", "apple-cancel", "apple-refund"]
        var inputs: [LedgerInput] = []
        func collect() {
            for body in notifications.pending(storeAccounts: accounts) {
                inputs.append(
                    .notification(
                        LedgerNotification(source: .appStore, body: Data(body.utf8), receivedAt: store.trueTime)))
            }
        }
        let devices = accounts.map {
            SimulatedTransactionSource(store: store, storeAccount: $0, bundleId: bundleId, signer: signer)
        }
        for device in devices { _ = try device.buy("monthly") }
        collect()
        for month in 1...14 {
            store.advance(by: ISODuration(months: 1))
            if month == 2 { store.storeEvent(.refund, storeAccount: "apple-refund", productId: "monthly") }
            if month == 4 { store.storeEvent(.cancel, storeAccount: "apple-cancel", productId: "monthly") }
            collect()
            if month == 7 {
                // The app posts its receipt: the long subscription is the poster's from then on.
                let receipt = JSONValue.array(try devices[0].receipt().map(JSONValue.string)).compactText
                inputs.append(
                    .document(
                        LedgerDocument(
                            source: .appStore, body: Data(receipt.utf8), appUserId: "apple-user",
                            receivedAt: store.trueTime)))
            }
        }
        return inputs
    }

    /// Play documents: a chain of three tokens (arriving in any order), another purchase, one posted.
    static func playInputs() -> [LedgerInput] {
        [
            .document(Play.document(Play.subscription(expiry: "2025-02-01T00:00:00Z"), token: "p1", at: "2025-01-02")),
            .document(
                Play.document(
                    Play.subscription(expiry: "2025-03-01T00:00:00Z", linked: "p1"), token: "p2", at: "2025-02-02")),
            .document(
                Play.document(
                    Play.subscription(expiry: "2025-04-01T00:00:00Z", linked: "p2"), token: "p3", at: "2025-03-02")),
            .document(
                Play.document(
                    Play.subscription(expiry: "2025-05-01T00:00:00Z", account: "acct-9"), token: "q1", at: "2025-01-05",
                    appUserId: "play-user")),
            .link(LedgerAccountKey(.obfuscatedAccountId, "acct-7"), to: "play-owner"),
        ]
    }

    /// Plain records: `threads` threads of up to `length` statements each, statements replaced by newer
    /// and older versions, account links that move between versions, and aliases that join threads.
    static func plainInputs(threads: Int, length: Int, generator: inout SplitMix64) -> [LedgerInput] {
        var inputs: [LedgerInput] = []
        for thread in 0..<threads {
            for step in 0..<length {
                let statement =
                    step % 3 == 0 ? "state" : "transaction \(Int.random(in: 0..<(length / 2 + 1), using: &generator))"
                var record: [String: JSONValue] = [
                    "thread": .string("t\(thread)"), "statement": .string(statement),
                    "order": .integer(1_735_689_600 + Int64.random(in: 0..<(86_400 * 120), using: &generator)),
                    "product": .string("plan\(thread % 3)"), "verified": .bool(Bool.random(using: &generator)),
                    "expires": .integer(1_735_689_600 + Int64.random(in: 0..<(86_400 * 120), using: &generator)),
                ]
                if Int.random(in: 0..<3, using: &generator) > 0 {
                    record["account"] = .string("plain-user-\(Int.random(in: 0..<4, using: &generator))")
                }
                if thread % 5 == 4, step == length - 1 { record["alias"] = .string("t\(thread - 1)") }
                let body = JSONValue.object([
                    "id": .string("n\(thread)-\(step)"), "records": .array([.object(record)]),
                ])
                inputs.append(
                    .notification(
                        LedgerNotification(
                            source: LedgerSourceID(rawValue: "plain"), body: Data(body.compactText.utf8),
                            receivedAt: start)))
            }
        }
        inputs.append(.logIn(from: "$RCAnonymousID:00000000000000000000000000000001", to: "plain-user-1"))
        inputs.append(.logIn(from: "plain-user-2", to: "plain-user-3"))
        return inputs
    }

    static func archive(seed: UInt64) throws -> Archive {
        let signer = try AppStoreTestSigner()
        var generator = SplitMix64(seed: seed)
        var inputs =
            try appStoreInputs(signer: signer) + playInputs()
            + plainInputs(threads: 12, length: 14, generator: &generator)
        let duplicates = (0..<20).map { _ in inputs[Int.random(in: 0..<inputs.count, using: &generator)] }
        inputs += duplicates
        inputs.shuffle(using: &generator)
        return Archive(
            sources: [
                AppStoreLedgerSource(
                    catalog: EntitlementCatalog(products: ["monthly": .init(entitlementIds: ["premium"])]),
                    bundleId: bundleId, rootCertificates: [signer.rootCertificate]),
                GooglePlayLedgerSource(catalog: Play.catalog, packageName: Play.package),
                PlainSource(),
            ],
            inputs: inputs,
            appUserIds: ["apple-user", "play-user", "play-owner", "acct-7"] + (0..<4).map { "plain-user-\($0)" }
                + ["$RCAnonymousID:00000000000000000000000000000001"],
            instants: ["2025-02-15", "2025-04-15", "2025-08-15", "2026-04-15"].map {
                midnight($0)
            })
    }

    /// What a replay leaves: each input's outcome (or refusal), the customers, every snapshot.
    struct Replay: Equatable {
        var outcomes: [String] = []
        var customers: [[String]] = []
        var snapshots: [EntitlementSnapshot] = []
    }

    /// Applies `inputs` in order through ledgers made by `ledger` — one per part of `cut` (a new ledger on
    /// the same store for the second half) — then answers every id at every instant.
    static func replay(
        _ archive: Archive, cut: Int?, store: () throws -> any LedgerStore
    ) async throws -> Replay {
        let configuration = LedgerConfiguration(environments: [.production, .sandbox])
        let first = try store()
        var ledger = EntitlementLedger(sources: archive.sources, store: first, configuration: configuration)
        var replay = Replay()
        for (index, input) in archive.inputs.enumerated() {
            if index == cut {
                ledger = EntitlementLedger(sources: archive.sources, store: try store(), configuration: configuration)
            }
            do {
                replay.outcomes.append("\(try await ledger.apply(input))")
            } catch {
                replay.outcomes.append("refused \(error)")
            }
        }
        replay.customers = try await ledger.customers()
        for appUserId in archive.appUserIds {
            for instant in archive.instants {
                replay.snapshots.append(try await ledger.snapshot(for: appUserId, at: instant))
            }
        }
        return replay
    }

    @Test(arguments: [3, 17])
    func everyStoreWholeAndInHalvesGivesTheOnePassReplay(seed: UInt64) async throws {
        let archive = try Self.archive(seed: seed)
        let reference = try await Self.replay(archive, cut: nil) { InMemoryLedgerStore() }
        #expect(reference.outcomes.contains { $0.hasPrefix("applied") })
        #expect(reference.snapshots.contains { !$0.active.isEmpty }, "the archive grants something")
        #expect(!reference.outcomes.contains { $0.hasPrefix("refused") }, "\(reference.outcomes)")

        let memory = InMemoryLedgerStore()
        #expect(try await Self.replay(archive, cut: archive.inputs.count / 2) { memory } == reference)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Differential-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole")
        #expect(try await Self.replay(archive, cut: nil) { try DirectoryLedgerStore(directory: whole) } == reference)
        // The second half in a store opened anew on the folder, as a second process would.
        let halves = folder.appendingPathComponent("halves")
        #expect(
            try await Self.replay(archive, cut: archive.inputs.count / 3) {
                try DirectoryLedgerStore(directory: halves)
            }
                == reference)
    }
}
