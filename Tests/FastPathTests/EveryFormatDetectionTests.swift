import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitAppStore
import EntitlementKitFixtures
import EntitlementKitGooglePlay
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import Testing

/// With every format the tool reads in the bulk decoder — the stores' adapters have no fast reader — a
/// detected record of a vendor still takes its fast reader, and the fast path still answers exactly as the
/// general one on every fixture and malformed document, detected or named.
@Suite(.timeLimit(.minutes(5))) struct EveryFormatDetectionTests {
    private static let now = Date(timeIntervalSince1970: 1_749_988_800)  // 2025-06-15T12:00:00Z
    private static let vendors: [any EntitlementAdapter] = [RevenueCatAdapter(), QonversionAdapter(), AdaptyAdapter()]
    private static let everyFormat: [any EntitlementAdapter] =
        vendors + [AppStoreAdapter(bundleId: "com.acme.trails"), GooglePlayAdapter()]

    private static func documents(_ provider: ProviderID) throws -> [(String, Data)] {
        try FixtureCatalog.scenarios(provider: provider).map {
            ("\(provider)/\($0.name)", try Data(contentsOf: $0.documentURL))
        }
    }

    private typealias Answer = DecodingAnswer

    @Test func aDetectedVendorRecordStillTakesItsFastReader() throws {
        let withStores = SnapshotDecoder(adapters: Self.everyFormat)
        let vendorsOnly = SnapshotDecoder(adapters: Self.vendors)
        var answered = 0
        for provider in [ProviderID.revenueCat, .qonversion, .adapty] {
            for (name, data) in try Self.documents(provider) {
                let before = vendorsOnly.fastSnapshot(fromRecord: data, format: nil, at: Self.now)
                let after = withStores.fastSnapshot(fromRecord: data, format: nil, at: Self.now)
                #expect((after != nil) == (before != nil), "\(name)")
                if after != nil { answered += 1 }
            }
        }
        // Most vendor fixtures are read by the fast path when detected (the rest are refusals or values
        // only the general path decides).
        #expect(answered > 40)
    }

    @Test func storeDocumentsAreLeftToTheGeneralPath() throws {
        let decoder = SnapshotDecoder(adapters: Self.everyFormat)
        for provider in [ProviderID.appStore, .googlePlay] {
            for (name, data) in try Self.documents(provider) {
                #expect(decoder.fastSnapshot(fromRecord: data, format: nil, at: Self.now) == nil, "\(name)")
            }
        }
    }

    @Test func bothPathsAgreeOnEveryDocumentDetectedOrNamed() throws {
        let fast = SnapshotDecoder(adapters: Self.everyFormat)
        var general = fast
        general.usesFastPath = false
        var all: [(String, Data)] = []
        for provider in [ProviderID.revenueCat, .qonversion, .adapty, .appStore, .googlePlay] {
            all += try Self.documents(provider)
        }
        #expect(all.count > 150)
        for (name, data) in all {
            for format in [nil, ProviderID.revenueCat, .qonversion, .adapty, .appStore, .googlePlay] {
                let generalAnswer = Answer { () throws(DocumentError) in
                    try general.snapshot(fromRecord: data, format: format, at: Self.now)
                }
                let fastAnswer = Answer { () throws(DocumentError) in
                    try fast.snapshot(fromRecord: data, format: format, at: Self.now)
                }
                #expect(fastAnswer == generalAnswer, "\(name) as \(String(describing: format))")
            }
        }
    }
}
