import EntitlementKit
import EntitlementKitAdapty
import Foundation

private typealias Field = AdaptyField

/// Renders a customer as Adapty's SDK backend answers `GET /api/v1/sdk/analytics/profiles/{profile_id}/`:
/// the envelope `{"data": {"type": "adapty_analytics_profile", "id", "attributes"}}` around a profile
/// with `paid_access_levels` (one per entitlement, expired ones included, `is_active` at true time,
/// `expires_at` already including a billing-issue grace period or cut at a refund), `subscriptions` keyed
/// by product id, and `non_subscriptions` (lifetime, non-renewing and consumable purchases, oldest first).
/// Dates are written as Adapty's backend writes them: six fractional digits and `+0000`.
///
/// The profile id is the customer's first anonymous id (Adapty's are lower-case UUIDs, the device's own
/// profile id), or for a customer known only by identified ids a UUID derived from the first; the first
/// identified id is the `customer_user_id`.
enum AdaptyWireRenderer {
    static func profile(_ view: CustomerView) -> JSONValue {
        let instant = view.instant
        var levels: [String: JSONValue] = [:]
        for grant in view.grants {
            var level = fields(grant.purchase, at: instant)
            level[Field.id] = .string(grant.entitlementId)
            levels[grant.entitlementId] = .object(level)
        }
        var subscriptions: [String: JSONValue] = [:]
        for (productId, purchase) in view.subscriptionsByProduct {
            var subscription = fields(purchase, at: instant)
            subscription[Field.vendorTransactionId] = .string(purchase.currentTransactionId)
            subscription[Field.vendorOriginalTransactionId] = .string(purchase.transactionId)
            subscription[Field.isSandbox] = .bool(false)
            // A refunded period ends at the refund, whatever the access level says.
            subscription[Field.expiresAt] = date(purchase.refundedAt ?? purchase.periodEnd)
            subscriptions[productId] = .object(subscription)
        }
        var nonSubscriptions: [String: [JSONValue]] = [:]
        for purchase in view.purchases {
            if case .autoRenewable = purchase.kind { continue }
            var isConsumable = false
            if case .consumable = purchase.kind { isConsumable = true }
            nonSubscriptions[purchase.productId, default: []].append(
                .object([
                    Field.purchaseId: .string("adapty-" + purchase.transactionId),
                    Field.store: .string(storeName(purchase.store)),
                    Field.vendorProductId: .string(purchase.productId),
                    Field.vendorTransactionId: .string(purchase.transactionId),
                    Field.vendorOriginalTransactionId: .string(purchase.transactionId),
                    Field.purchasedAt: date(purchase.purchasedAt),
                    Field.isSandbox: .bool(false),
                    Field.isRefund: .bool(purchase.refundedAt != nil),
                    Field.isConsumable: .bool(isConsumable),
                ]))
        }
        let anonymous = view.customer.appUserIds.first(where: AdaptyProfileIdForm.matches)
        let identified = view.customer.appUserIds.first { !AdaptyProfileIdForm.matches($0) }
        let profileId = anonymous ?? AdaptyProfileIdForm.derived(from: view.customer.originalAppUserId)
        return .object([
            Field.data: .object([
                Field.type: .string("adapty_analytics_profile"),
                Field.id: .string(profileId),
                Field.attributes: .object([
                    Field.profileId: .string(profileId),
                    Field.customerUserId: identified.map(JSONValue.string) ?? .null,
                    Field.segmentHash: .string("simulated"),
                    Field.timestamp: .integer(instant.millisecondsSince1970),
                    Field.isTestUser: .bool(false),
                    Field.customAttributes: .object([:]),
                    Field.paidAccessLevels: .object(levels),
                    Field.subscriptions: .object(subscriptions),
                    Field.nonSubscriptions: .object(nonSubscriptions.mapValues(JSONValue.array)),
                ]),
            ])
        ])
    }

    /// The members an access level and a subscription share.
    private static func fields(_ purchase: SimulatedPurchase, at instant: Date) -> [String: JSONValue] {
        let accessEnd = purchase.accessEnd
        var isInGracePeriod = false
        if purchase.billingIssueAt != nil, let periodEnd = purchase.periodEnd, let accessEnd {
            isInGracePeriod = instant > periodEnd && instant <= accessEnd
        }
        let cancellationReason: JSONValue =
            if purchase.refundedAt != nil {
                .string("refund")
            } else if purchase.autoRenewDisabledAt != nil {
                .string("voluntarily_cancelled")
            } else {
                .null
            }
        return [
            Field.isActive: .bool(purchase.isActive(at: instant)),
            Field.vendorProductId: .string(purchase.productId),
            Field.store: .string(storeName(purchase.store)),
            Field.activatedAt: date(purchase.purchasedAt),
            Field.renewedAt: purchase.renewalCount > 0 ? date(purchase.periodStart) : .null,
            Field.expiresAt: date(accessEnd),
            Field.startsAt: .null,
            Field.isLifetime: .bool(accessEnd == nil),
            // Auto-renew stays on through a billing issue; it is off after a cancellation or a refund.
            Field.willRenew: .bool(purchase.renewState == .willRenew || purchase.renewState == .billingIssue),
            Field.isInGracePeriod: .bool(isInGracePeriod),
            Field.isRefund: .bool(purchase.refundedAt != nil),
            Field.unsubscribedAt: date(purchase.autoRenewDisabledAt),
            Field.billingIssueDetectedAt: date(purchase.billingIssueAt),
            Field.activeIntroductoryOfferType: purchase.isInTrial ? .string("free_trial") : .null,
            Field.activePromotionalOfferType: .null,
            Field.cancellationReason: cancellationReason,
        ]
    }

    /// `2025-01-01T00:00:00.000000+0000`, as Adapty's backend writes dates.
    private static func date(_ date: Date?) -> JSONValue {
        guard let date else { return .null }
        let canonical = RFC3339.string(from: date)  // …SS[.mmm]Z
        let seconds = canonical.prefix(19)
        let milliseconds = canonical.count > 20 ? String(canonical.dropFirst(20).prefix(3)) : "000"
        return .string(seconds + "." + milliseconds + "000+0000")
    }

    private static func storeName(_ store: Store) -> String {
        // A simulated purchase is the App Store's or Google Play's; both are named.
        store.adaptyName ?? "app_store"
    }
}

/// Adapty's profile ids: lower-case UUIDs, made by the SDK on the device for an anonymous user.
enum AdaptyProfileIdForm {
    /// The simulated Adapty backend's provider id.
    static let flavour = ProviderID.adapty

    /// A version-4 UUID in lower case from 128 random bits.
    static func uuid(high: UInt64, low: UInt64) -> String {
        let versioned = (high & ~0xF000) | 0x4000
        let varianted = (low & ~(0xC000 << 48)) | (0x8000 << 48)
        let hex = hex(versioned) + hex(varianted)
        let characters = Array(hex)
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16]) + "-"
            + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }

    /// Whether `id` is a lower-case UUID (`8-4-4-4-12` hex digits).
    static func matches(_ id: String) -> Bool {
        LowercaseUUID.matches(id)
    }

    /// A stable UUID for a customer Adapty knows only by an identified id (FNV-1a of the id, twice).
    static func derived(from appUserId: String) -> String {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325
        var second: UInt64 = 0x8422_2325_CBF2_9CE4
        for byte in appUserId.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return uuid(high: first, low: second)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Whether `appUserId` is an anonymous id of the simulated `flavour`, as that backend's SDK makes them: a
/// lower-case UUID (a profile id) for Adapty — only that, as the live `AdaptyProvider` says, so in a
/// simulated cut-over to Adapty an anonymous customer of another backend gets an Adapty id of its own —
/// and RevenueCat's and Qonversion's generated forms for the other two.
func isSimulatedAnonymousId(_ appUserId: String, flavour: ProviderID) -> Bool {
    if flavour == AdaptyProfileIdForm.flavour { return AdaptyProfileIdForm.matches(appUserId) }
    return AppUserIdCheck(appUserId).anonymousForm != nil
}
