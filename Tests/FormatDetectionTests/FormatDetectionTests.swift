import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitAppStore
import EntitlementKitFixtures
import EntitlementKitGooglePlay
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import EntitlementKitStripe
import Foundation
import Testing

/// The one detector over every format the package ships: each adapter claims its own documents and no
/// other's, and a document two formats claim is refused, naming both and their markers.
@Suite("Format detection across every format", .timeLimit(.minutes(5)))
struct FormatDetectionTests {
    /// Every format, in the command-line tool's order, the unified form last.
    static let adapters: [any EntitlementAdapter] = [
        RevenueCatAdapter(), QonversionAdapter(), AdaptyAdapter(), AppStoreAdapter(), GooglePlayAdapter(),
        StripeAdapter(), UnifiedSnapshotAdapter(),
    ]
    static let detector = FormatDetector(adapters: adapters)

    @Test(
        "every fixture is claimed by its own adapter alone",
        arguments: ProviderID.backends + [.appStore, .googlePlay, .stripe])
    func noAdapterClaimsAnothersFixture(_ provider: ProviderID) throws {
        var claimed = 0
        for scenario in try FixtureCatalog.scenarios(provider: provider) {
            guard let node = try? JSONNode(parsing: scenario.document()) else { continue }
            for adapter in Self.adapters where adapter.provider != provider {
                #expect(!adapter.recognizes(node), "\(adapter.provider) claims \(provider)'s \(scenario.name)")
                #expect(!adapter.recognizes(node.value), "\(adapter.provider) claims \(provider)'s \(scenario.name)")
            }
            guard case .snapshot = scenario.expectation else { continue }
            #expect(
                Self.detector.claimants(of: node).map(\.provider) == [provider], "\(provider)'s \(scenario.name)")
            claimed += 1
        }
        #expect(claimed > 0)
    }

    @Test("every adapter declares markers, and claims only documents they admit")
    func markersAreDeclared() throws {
        for adapter in Self.adapters {
            #expect(adapter.formatMarkers != .unrestricted, "\(adapter.provider)")
            #expect(!adapter.formatMarkers.memberNames.isEmpty, "\(adapter.provider)")
        }
    }

    @Test("a document two formats claim is refused, naming both, their markers and where")
    func twoFormatsMarkersAreAmbiguous() throws {
        let document = try JSONNode(
            parsing: Data(#"{"schemaVersion": 3, "subscriber": {"entitlements": {}}, "request_date": "x"}"#.utf8))
        #expect(Self.detector.claimants(of: document).map(\.provider) == [.revenueCat, .unified])
        let error = #expect(throws: DocumentError.self) { try Self.detector.adapter(for: document) }
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.path.description == "$")
        #expect(
            error?.reason
                == "matches more than one format (revenuecat, unified), by revenuecat's `subscriber` and unified's "
                + "`schemaVersion`; name the format"
        )
        // Through the decoder too, in either order of its adapters: never a guess.
        for adapters in [Self.adapters, Self.adapters.reversed()] {
            let decoder = SnapshotDecoder(adapters: adapters)
            #expect(throws: DocumentError.self) { try decoder.snapshot(from: document, at: .distantPast) }
        }
    }

    @Test("a document with another format's member is not claimed by a format with a closed vocabulary")
    func closedVocabulariesRuleOutOtherMembers() throws {
        // A Qonversion list envelope carrying RevenueCat's `subscriber`: only RevenueCat claims it.
        let document = try JSONNode(parsing: Data(#"{"subscriber": {}, "data": []}"#.utf8))
        #expect(Self.detector.claimants(of: document).map(\.provider) == [.revenueCat])
        // A Stripe list is not Qonversion's, though both use the list envelope.
        let stripeList = try JSONNode(
            parsing: Data(
                #"{"object": "list", "has_more": false, "url": "/v1/subscriptions", "data": [{"object": "subscription"}]}"#
                    .utf8))
        #expect(!QonversionAdapter().recognizes(stripeList))
    }
}
