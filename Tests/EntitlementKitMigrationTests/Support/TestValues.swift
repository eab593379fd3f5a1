import EntitlementKit
import Foundation
import TestSupport

/// Instants and small snapshots the library tests build by hand.
enum TestValues {
    static func date(_ text: String) -> Date { instant(text) }

    /// The instant most tests evaluate at.
    static let now = date("2025-06-01T12:00:00Z")

    static func entitlement(
        _ id: String,
        expires: String? = "2025-07-01T00:00:00Z",
        productId: String? = "com.example.monthly",
        renewState: RenewState = .willRenew,
        periodType: PeriodType = .normal,
        store: Store = .appStore,
        isSandbox: Bool = false,
        grantType: GrantType = .purchase,
        ownershipType: OwnershipType = .purchased,
        denial: Denial? = nil,
        at instant: Date = now
    ) -> Entitlement {
        Entitlement(
            id: id, productId: productId, renewState: renewState, periodType: periodType, store: store,
            isSandbox: isSandbox, grantType: grantType, ownershipType: ownershipType,
            expirationDate: expires.map(date), denial: denial, at: instant
        )
    }

    static func snapshot(
        _ appUserId: String?, provider: ProviderID = ProviderID(rawValue: "test"), _ entitlements: [Entitlement],
        at instant: Date = now
    ) -> EntitlementSnapshot {
        EntitlementSnapshot(provider: provider, appUserId: appUserId, evaluatedAt: instant, entitlements: entitlements)
    }
}
