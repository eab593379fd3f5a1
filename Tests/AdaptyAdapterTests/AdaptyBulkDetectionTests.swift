import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitFixtures
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import Testing

/// With Adapty among the bulk decoder's formats, every fixture of the three backends and every malformed
/// document gets the same answer from the fast path as from the general one, detected or named — and
/// RevenueCat's and Qonversion's fast readers still answer when the format is detected (Adapty's key test
/// must not force them off).
@Suite("Adapty in the bulk decoder", .timeLimit(.minutes(5)))
struct AdaptyBulkDetectionTests {
    private static let now = instant("2025-06-01T12:00:00Z")
    private static let adapters: [any EntitlementAdapter] = [RevenueCatAdapter(), QonversionAdapter(), AdaptyAdapter()]

    private static var fastDecoder: SnapshotDecoder { SnapshotDecoder(adapters: adapters) }
    private static var generalDecoder: SnapshotDecoder {
        var decoder = fastDecoder
        decoder.usesFastPath = false
        return decoder
    }

    private typealias Answer = DecodingAnswer

    private static func documents(_ provider: ProviderID) throws -> [(String, Data)] {
        try FixtureCatalog.scenarios(provider: provider).map { ($0.name, try Data(contentsOf: $0.documentURL)) }
    }

    private static func malformed() throws -> [(String, Data)] {
        try FixtureCatalog.malformedDocuments().map { ($0.name, $0.data) }
    }

    @Test func bothPathsAgreeOnEveryDocument() throws {
        var all: [(String, Data)] = try Self.malformed()
        for provider in [ProviderID.revenueCat, .qonversion, AdaptyAdapter().provider] {
            all += try Self.documents(provider)
        }
        #expect(all.count > 150)
        for (name, data) in all {
            for format in [nil, ProviderID.revenueCat, .qonversion, AdaptyAdapter().provider] {
                let general = Answer { () throws(DocumentError) in
                    try Self.generalDecoder.snapshot(fromRecord: data, format: format, at: Self.now)
                }
                let fast = Answer { () throws(DocumentError) in
                    try Self.fastDecoder.snapshot(fromRecord: data, format: format, at: Self.now)
                }
                #expect(fast == general, "\(name) as \(String(describing: format))")
            }
        }
    }

    @Test func theOtherFastReadersStillAnswerWhenTheFormatIsDetected() throws {
        var answered = 0
        for provider in [ProviderID.revenueCat, .qonversion] {
            for scenario in try FixtureCatalog.scenarios(provider: provider) {
                guard case .snapshot = scenario.expectation else { continue }
                let data = try Data(contentsOf: scenario.documentURL)
                let withoutAdapty = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])
                let before = withoutAdapty.fastSnapshot(fromRecord: data, format: nil, at: Self.now) != nil
                let after = Self.fastDecoder.fastSnapshot(fromRecord: data, format: nil, at: Self.now) != nil
                #expect(after == before, "\(provider)/\(scenario.name)")
                if after { answered += 1 }
            }
        }
        #expect(answered >= 30)
    }

    @Test func adaptyDocumentsAreDetected() throws {
        for scenario in try FixtureCatalog.scenarios(provider: AdaptyAdapter().provider) {
            guard case .snapshot = scenario.expectation else { continue }
            let document = try JSONNode(parsing: Data(contentsOf: scenario.documentURL))
            #expect(try Self.generalDecoder.detectFormat(of: document) == AdaptyAdapter().provider, "\(scenario.name)")
        }
    }
}
