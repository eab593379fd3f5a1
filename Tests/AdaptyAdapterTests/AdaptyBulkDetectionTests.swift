import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitFixtures
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import JSONOracle
import TestSupport
import Testing

/// With Adapty among the bulk decoder's formats, every fixture of the three backends and every malformed
/// document gets the same answer through the tape as through the tree parser it replaced (the oracle),
/// detected or named.
@Suite("Adapty in the bulk decoder", .timeLimit(.minutes(5)))
struct AdaptyBulkDetectionTests {
    private static let now = instant("2025-06-01T12:00:00Z")
    private static let adapters: [any EntitlementAdapter] = [RevenueCatAdapter(), QonversionAdapter(), AdaptyAdapter()]

    private static var decoder: SnapshotDecoder { SnapshotDecoder(adapters: adapters) }

    private typealias Answer = DecodingAnswer

    private static func documents(_ provider: ProviderID) throws -> [(String, Data)] {
        try FixtureCatalog.scenarios(provider: provider).map { ($0.name, try Data(contentsOf: $0.documentURL)) }
    }

    private static func malformed() throws -> [(String, Data)] {
        try FixtureCatalog.malformedDocuments().map { ($0.name, $0.data) }
    }

    @Test func theTapeAndTheOracleAgreeOnEveryDocument() throws {
        var all: [(String, Data)] = try Self.malformed()
        for provider in [ProviderID.revenueCat, .qonversion, AdaptyAdapter().provider] {
            all += try Self.documents(provider)
        }
        #expect(all.count > 150)
        for (name, data) in all {
            for format in [nil, ProviderID.revenueCat, .qonversion, AdaptyAdapter().provider] {
                let oracle = Answer { () throws(DocumentError) in
                    try Self.decoder.snapshot(
                        fromRecord: JSONNode(OracleJSONParser.parse(data)), format: format, at: Self.now)
                }
                let tape = Answer { () throws(DocumentError) in
                    try Self.decoder.snapshot(fromRecord: data, format: format, at: Self.now)
                }
                #expect(tape == oracle, "\(name) as \(String(describing: format))")
            }
        }
    }

    @Test func adaptyDocumentsAreDetected() throws {
        for scenario in try FixtureCatalog.scenarios(provider: AdaptyAdapter().provider) {
            guard case .snapshot = scenario.expectation else { continue }
            let document = try JSONNode(parsing: Data(contentsOf: scenario.documentURL))
            #expect(try Self.decoder.detectFormat(of: document) == AdaptyAdapter().provider, "\(scenario.name)")
        }
    }
}
