import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import EntitlementKitStripe
import Foundation
import Testing

/// Every document in `Fixtures/malformed` fails with exactly the located error written next to it, in the
/// library and in the command-line tool, and grants nothing.
@Suite(.timeLimit(.minutes(5))) struct MalformedInputTests {
    /// The instant documents are judged at; no malformed document gets far enough for it to matter.
    static let instant = Date(timeIntervalSince1970: 1_748_779_200)  // 2025-06-01T12:00:00Z

    static func adapter(for format: String) -> (any EntitlementAdapter)? {
        switch format {
        case "revenuecat": RevenueCatAdapter()
        case "qonversion": QonversionAdapter()
        case "adapty": AdaptyAdapter()
        case "appstore": AppStoreAdapter()
        case "googleplay": GooglePlayAdapter()
        case "stripe": StripeAdapter()
        case "unified": UnifiedSnapshotAdapter()
        default: nil
        }
    }

    @Test func theCorpusCoversBothVendorsAndTheUnifiedForm() throws {
        let corpus = try MalformedCorpus.load()
        #expect(corpus.cases.count >= 40)
        for format in ["revenuecat", "qonversion", "adapty", "unified"] {
            #expect(corpus.cases.filter { $0.from == format }.count >= 10, "\(format)")
        }
        // Every committed document is checked, and every listed one exists.
        let committed = Set(
            try FileManager.default.contentsOfDirectory(atPath: MalformedCorpus.directory.path)
                .filter { $0 != "expected.json" && $0 != "README.md" })
        let listed = Set(corpus.cases.filter { $0.generate == nil }.map(\.file))
        #expect(committed == listed)
        #expect(Set(corpus.cases.map(\.file)).count == corpus.cases.count, "file names are unique")
    }

    @Test(arguments: MalformedCorpus.all)
    func theLibraryRefusesWithTheLocatedError(_ malformed: MalformedCorpus.Case) throws {
        let adapter = try #require(Self.adapter(for: malformed.from))
        let data = try malformed.bytes()
        do {
            let snapshot = try adapter.snapshot(from: data, at: Self.instant)
            Issue.record("\(malformed.file) was accepted: \(snapshot.activeEntitlementIds)")
        } catch {
            #expect(error.kind.rawValue == malformed.kind)
            #expect(error.description == malformed.error)
        }
    }

    @Test(arguments: MalformedCorpus.all)
    func theToolExits65WithTheErrorOnStandardErrorOnly(_ malformed: MalformedCorpus.Case) async throws {
        var directory = MalformedCorpus.directory
        var scratch: URL?
        if malformed.generate != nil {
            let made = FileManager.default.temporaryDirectory.appendingPathComponent("malformed-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            try malformed.bytes().write(to: made.appendingPathComponent(malformed.file))
            directory = made
            scratch = made
        }
        defer { scratch.map { try? FileManager.default.removeItem(at: $0) } }
        let outcome = try await CommandLineTool.runOnOwnThread(
            ["convert", "--from", malformed.from, "--at", "2025-06-01T12:00:00Z", malformed.file], in: directory)
        #expect(outcome.status == 65)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == "error: \(malformed.file): \(malformed.cliError ?? malformed.error)\n")
    }
}
