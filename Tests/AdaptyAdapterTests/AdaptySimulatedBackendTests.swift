import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

/// The simulated backend answering as Adapty: every bundled story holds, the wire document is Adapty's
/// SDK backend envelope, and anonymous ids have Adapty's form (a lower-case UUID, the device's profile id).
@Suite("Simulated Adapty backend", .timeLimit(.minutes(5)))
struct AdaptySimulatedBackendTests {
    static let adapty = AdaptyAdapter().provider
    static let files: [URL] = (try? BundledScenarios.files()) ?? []

    @Test(arguments: files)
    func everyBundledStoryHoldsForAdapty(file: URL) async throws {
        let reports = try await ScenarioRunner.run(contentsOf: file, providers: [Self.adapty])
        #expect(reports.map(\.provider) == [Self.adapty])
        for report in reports {
            #expect(report.passed, "\(report)")
        }
    }

    @Test func anonymousIdsAreLowerCaseUUIDs() async throws {
        let backend = SimulatedBackend(flavour: Self.adapty, start: instant("2025-01-01T00:00:00Z"))
        let provider = backend.provider()
        let id = provider.makeAnonymousAppUserId()
        #expect(id.count == 36)
        #expect(id == id.lowercased())
        #expect(UUID(uuidString: id) != nil)
        #expect(Array(id)[14] == "4")
        #expect(provider.isAnonymous(id))
        #expect(!provider.isAnonymous("alice"))
        #expect(!provider.isAnonymous(id.uppercased()))
        // Only Adapty's form, as the live AdaptyProvider says: another backend's anonymous id is not Adapty's
        // (a cut-over to Adapty gives an anonymous customer a profile id of its own).
        #expect(!provider.isAnonymous("$RCAnonymousID:0123456789abcdef0123456789abcdef"))
        #expect(!provider.isAnonymous("QON_0123456789abcdef0123456789abcdef"))
        #expect(provider.makeAnonymousAppUserId() != id)
    }

    @Test func theWireDocumentIsTheSDKBackendEnvelope() async throws {
        let backend = SimulatedBackend(flavour: Self.adapty, start: instant("2025-01-01T00:00:00Z"))
        let anonymous = backend.provider().makeAnonymousAppUserId()
        let document = await backend.wireDocument(for: anonymous)
        #expect(document["data"]?["type"] == .string("adapty_analytics_profile"))
        #expect(document["data"]?["id"] == .string(anonymous))
        #expect(document["data"]?["attributes"]?["profile_id"] == .string(anonymous))
        #expect(document["data"]?["attributes"]?["customer_user_id"] == .null)
        #expect(AdaptyAdapter().recognizes(document))
        let identified = await backend.wireDocument(for: "alice")
        #expect(identified["data"]?["attributes"]?["customer_user_id"] == .string("alice"))
        let snapshot = try AdaptyAdapter().snapshot(
            from: JSONNode(identified), at: instant("2025-01-01T00:00:00Z"))
        #expect(snapshot.appUserId == "alice")
    }
}
