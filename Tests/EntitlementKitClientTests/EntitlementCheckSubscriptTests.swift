import EntitlementKit
import Foundation
import Testing

/// `check["premium"]` reads an entitlement straight off the answer, as `check.snapshot?["premium"]` does.
@Suite(.timeLimit(.minutes(5))) struct EntitlementCheckSubscriptTests {
    static let instant = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func theSubscriptReadsTheSnapshotsEntitlementActiveOrNot() {
        let expiry = Self.instant.addingTimeInterval(86_400)
        let snapshot = EntitlementSnapshot(
            provider: .revenueCat, evaluatedAt: Self.instant,
            entitlements: [
                Entitlement(id: "premium", expirationDate: expiry, at: Self.instant),
                Entitlement(id: "pro", expirationDate: Self.instant.addingTimeInterval(-1), at: Self.instant),
            ])
        let check = EntitlementCheck(snapshot: snapshot, source: .network, error: nil)
        #expect(check["premium"]?.expirationDate == expiry)
        #expect(check["premium"]?.isActive == true)
        #expect(check["pro"]?.isActive == false)
        #expect(check["lifetime"] == nil)
    }

    @Test func withoutASnapshotTheSubscriptGrantsNothing() {
        let check = EntitlementCheck(
            snapshot: nil, source: .network,
            error: EntitlementClientError(.offline, "no network"))
        #expect(check["premium"] == nil)
    }
}
