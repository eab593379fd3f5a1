import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation
import Testing

/// The malformed notification bodies of `Fixtures/ledger/malformed` (listed, with the refusal each must
/// get, in its `expected.json`): refused with that kind, naming the part, and nothing stored.
@Suite("Malformed notification bodies", .timeLimit(.minutes(5)))
struct MalformedNotificationTests {
    struct Case: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var source: String
        var refusal: String
        var message: String
        var description: String { file }
    }

    struct Corpus: Decodable {
        var cases: [Case]
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/ledger/malformed")

    static let cases: [Case] =
        (try? JSONDecoder().decode(
            Corpus.self, from: Data(contentsOf: directory.appendingPathComponent("expected.json"))))?
        .cases ?? []

    @Test func everyCommittedBodyIsListed() throws {
        let committed = Set(try FileManager.default.contentsOfDirectory(atPath: Self.directory.path))
            .subtracting(["expected.json"])
        #expect(committed == Set(Self.cases.map(\.file)))
        #expect(Self.cases.count >= 12)
    }

    @Test(arguments: cases)
    func refused(_ malformed: Case) async throws {
        let ledger = EntitlementLedger(sources: [
            try SignedNotifications.appStoreSource(),
            GooglePlayLedgerSource(packageName: "com.acme.trails"),
        ])
        let body = try Data(contentsOf: Self.directory.appendingPathComponent(malformed.file))
        let notification = LedgerNotification(
            source: LedgerSourceID(rawValue: malformed.source), body: body, receivedAt: .distantPast)
        do {
            let outcome = try await ledger.apply(notification)
            Issue.record("\(malformed.file) was applied: \(outcome)")
        } catch {
            #expect(error.kind.rawValue == malformed.refusal, "\(error)")
            #expect(error.message.contains(malformed.message), "\(error)")
            #expect(!error.message.contains("\n"))
        }
        #expect(try await ledger.customers().isEmpty)
    }
}
