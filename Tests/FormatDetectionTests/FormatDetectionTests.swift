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

    /// Fixtures that carry no mark of their format (an empty Qonversion list): claimed only while they hold
    /// nothing else, so an extra member leaves them unclaimed.
    static let unmarkedFixtures: Set<String> = ["v3-empty-list"]

    @Test(
        "a fixture with a member its format does not know is still claimed by its own adapter alone",
        arguments: [ProviderID.adapty, .qonversion, .appStore, .googlePlay, .stripe, .revenueCat])
    func unknownMembersDoNotStopAClaim(_ provider: ProviderID) throws {
        var claimed = 0
        for scenario in try FixtureCatalog.scenarios(provider: provider) {
            guard case .snapshot = scenario.expectation,
                let document = try? JSONValue.parse(scenario.document())
            else { continue }
            let extended = JSONNode(Self.addingFutureField(to: document))
            let claimants = Self.detector.claimants(of: extended).map(\.provider)
            if Self.unmarkedFixtures.contains(scenario.name) {
                #expect(claimants.isEmpty, "\(provider)'s \(scenario.name)")
            } else {
                #expect(claimants == [provider], "\(provider)'s \(scenario.name)")
                claimed += 1
            }
        }
        #expect(claimed > 0)
    }

    @Test("a document marked as two formats' is refused as ambiguous, not guessed")
    func twoFormatsMarksAreAmbiguous() throws {
        let cases: [(json: String, claimants: [ProviderID])] = [
            (#"{"data": {"uid": "QON_1", "profile_id": "p"}}"#, [.qonversion, .adapty]),
            (#"{"schemaVersion": 2, "profile_id": "p"}"#, [.adapty, .unified]),
        ]
        for (json, expected) in cases {
            let document = try JSONNode(parsing: Data(json.utf8))
            #expect(Self.detector.claimants(of: document).map(\.provider) == expected, "\(json)")
            let error = #expect(throws: DocumentError.self) { try Self.detector.adapter(for: document) }
            #expect(error?.reason.hasPrefix("matches more than one format") == true, "\(json)")
        }
    }

    /// `document` with `"future_field": 1` at its top level (in an array, in its first element) and in each
    /// envelope's object (`data`, `success`, `data.attributes`), where Adapty and Qonversion keep the profile.
    static func addingFutureField(to document: JSONValue) -> JSONValue {
        switch document {
        case .object(var members):
            for key in ["data", "success"] {
                guard case .object(var inner)? = members[key] else { continue }
                if case .object(var attributes)? = inner["attributes"] {
                    attributes["future_field"] = .integer(1)
                    inner["attributes"] = .object(attributes)
                }
                inner["future_field"] = .integer(1)
                members[key] = .object(inner)
            }
            members["future_field"] = .integer(1)
            return .object(members)
        case .array(var items):
            if case .object(var first)? = items.first {
                first["future_field"] = .integer(1)
                items[0] = .object(first)
            }
            return .array(items)
        default:
            return document
        }
    }
}
