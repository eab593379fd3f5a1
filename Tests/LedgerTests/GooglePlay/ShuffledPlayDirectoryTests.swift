import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// The same story, shuffled and with duplicates, through a `DirectoryLedgerStore` and Google Play
/// documents and notifications: identical snapshots every time.
@Suite("Shuffled Play deliveries into a directory", .timeLimit(.minutes(2)))
struct ShuffledPlayDirectoryTests {
    typealias Play = GooglePlayLedgerTests

    static func inputs() throws -> [LedgerInput] {
        // Signed, so the void is taken as fact (GooglePlayPushAuthenticationTests).
        let voided = try GooglePlayPushAuthenticationTests.signed(
            Play.push(
                messageId: "v1",
                [
                    "voidedPurchaseNotification": .object([
                        "purchaseToken": .string("second"), "orderId": .string("GPA.2"), "productType": .integer(1),
                        "refundType": .integer(1),
                    ])
                ]))
        let test = try GooglePlayPushAuthenticationTests.signed(
            Play.push(messageId: "t1", ["testNotification": .object(["version": .string("1.0")])]))
        return [
            .document(
                Play.document(Play.subscription(expiry: "2025-02-01T00:00:00Z"), token: "first", at: "2025-01-02")),
            .document(
                Play.document(Play.subscription(expiry: "2025-03-01T00:00:00Z"), token: "first", at: "2025-02-02")),
            .document(
                Play.document(
                    Play.subscription(expiry: "2025-05-01T00:00:00Z", linked: "first"), token: "second",
                    at: "2025-03-02")),
            .notification(voided), .notification(test),
            .document(
                Play.document(Play.subscription(expiry: "2025-04-01T00:00:00Z"), token: "other", at: "2025-03-03")),
        ]
    }

    @Test func anyOrderWithDuplicatesGivesIdenticalSnapshots() async throws {
        let story = try Self.inputs()
        let instants = ["2025-01-15", "2025-02-15", "2025-03-15", "2025-04-15"].map(midnight)
        var expected: [EntitlementSnapshot]?
        var generator = SplitMix64(seed: 11)
        for round in 0..<4 {
            var inputs = story + story.prefix(round + 1)
            inputs.shuffle(using: &generator)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "LedgerShuffle-" + UUID().uuidString)
            defer { try? FileManager.default.removeItem(at: directory) }
            let ledger = EntitlementLedger(
                sources: [
                    GooglePlayLedgerSource(
                        catalog: Play.catalog, packageName: Play.package,
                        pushAuthentication: try GooglePlayPushAuthenticationTests.authentication())
                ],
                store: try DirectoryLedgerStore(directory: directory))
            for input in inputs { _ = try await ledger.apply(input) }
            var snapshots: [EntitlementSnapshot] = []
            for instant in instants { snapshots.append(try await ledger.snapshot(for: "acct-7", at: instant)) }
            if let expected {
                #expect(snapshots == expected, "round \(round)")
            } else {
                expected = snapshots
            }
        }
        #expect(expected?.map { $0.isActive("pro") } == [true, true, true, false])
    }
}
