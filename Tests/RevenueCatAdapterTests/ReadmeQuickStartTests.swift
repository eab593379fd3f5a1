import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitRevenueCat
import Foundation
import Testing

/// The README's quick start, run on a bundled response, so the example keeps compiling and stays true.
@Suite("README quick start")
struct ReadmeQuickStartTests {
    @Test func quickStartAnswersAsTheReadmeSays() throws {
        let body = try FixtureCatalog.scenario(provider: .revenueCat, name: "active-monthly").document()
        let requestInstant = try #require(RFC3339.date(from: "2025-09-15T10:00:00Z"))

        let adapter = RevenueCatAdapter()
        let snapshot = try adapter.snapshot(from: body, at: requestInstant)
        #expect(snapshot["pro"]?.isActive == true)
        #expect(snapshot.active.map(\.id) == ["pro"])
        #expect(snapshot["pro"]?.renewState == .willRenew)

        let cached = snapshot.canonicalJSONData()
        let dayAfterExpiry = try #require(RFC3339.date(from: "2025-10-04T12:00:05Z"))
        let later = try EntitlementSnapshot(json: cached).evaluated(by: FixedClock(dayAfterExpiry))
        #expect(later["pro"]?.isActive == false, "an expired entitlement lapses even from a cache")
        #expect(try EntitlementSnapshot(json: cached).evaluated(at: requestInstant) == snapshot)
    }
}
