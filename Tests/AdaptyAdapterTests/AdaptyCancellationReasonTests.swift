import EntitlementKit
import Testing

@testable import EntitlementKitAdapty

/// `cancellation_reason` → the unified reason, value by value (adapty-mapping.md's table).
@Suite("Adapty cancellation reasons", .timeLimit(.minutes(5)))
struct AdaptyCancellationReasonTests {
    @Test func everyValueMaps() {
        let table: [(String?, String?)] = [
            ("voluntarily_cancelled", "customerCancelled"), ("billing_error", "billingError"),
            ("price_increase", "priceIncrease"), ("product_was_not_available", "productUnavailable"),
            ("refund", "refunded"), ("upgraded", "upgraded"), ("cancelled_by_developer", "developerCancelled"),
            ("adapty_revoked", "developerCancelled"), ("new_subscription_replace", "replaced"), ("unknown", "unknown"),
            ("user_cancelled", "unknown"), ("User Choice", "unknown"), ("", nil), (nil, nil),
        ]
        for (raw, unified) in table {
            #expect(AdaptyCancellationReason.unifiedRawValue(of: raw) == unified, "\(String(describing: raw))")
        }
    }

    @Test func aRefundIsRefundedWhateverTheReasonSays() {
        for raw in ["voluntarily_cancelled", "upgraded", "", nil] as [String?] {
            #expect(AdaptyCancellationReason.unifiedRawValue(of: raw, isRefund: true) == "refunded")
        }
    }

    @Test func onlyARefundOrARevocationWithdrawsV2Access() {
        #expect(AdaptyDenial.v2("refund") == Denial(.refunded, raw: "refund"))
        #expect(AdaptyDenial.v2("adapty_revoked") == Denial(.revoked, raw: "adapty_revoked"))
        for raw in ["voluntarily_cancelled", "cancelled_by_developer", "billing_error", "unknown", nil] as [String?] {
            #expect(AdaptyDenial.v2(raw) == nil)
        }
    }
}
