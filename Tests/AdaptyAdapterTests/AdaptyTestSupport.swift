import EntitlementKit
import EntitlementKitAdapty
import Foundation
import TestSupport

/// The instant the unit tests evaluate at unless they say otherwise.
let evaluationInstant = instant("2025-06-01T12:00:00Z")

/// Maps `json` with the Adapty adapter at `at`.
func adaptySnapshot(_ json: String, at: Date = evaluationInstant) throws(DocumentError) -> EntitlementSnapshot {
    try AdaptyAdapter().snapshot(from: Data(json.utf8), at: at)
}

/// The error the adapter refuses `json` with, or `nil` when it maps it.
func adaptyFailure(_ json: String) -> DocumentError? {
    do throws(DocumentError) {
        _ = try adaptySnapshot(json)
        return nil
    } catch {
        return error
    }
}

/// A bare bridge profile with one access level `premium` given as JSON members (without braces), and
/// optional extra profile members.
func bridgeProfile(level members: String, extra: String = "") -> String {
    var text =
        #"{"profile_id": "00000000-0000-4000-8000-000000000001", "paid_access_levels": {"premium": {\#(members)}}"#
    if !extra.isEmpty { text += ", " + extra }
    return text + "}"
}

/// The members of a plain active App Store access level `premium`, to extend or override in tests.
func premiumLevel(expires: String = "2025-06-10T00:00:00.000Z", active: String = "true", extra: String = "") -> String {
    var text = """
        "id": "premium", "is_active": \(active), "vendor_product_id": "premium.monthly", "store": "app_store", \
        "activated_at": "2025-05-10T00:00:00.000Z", "expires_at": "\(expires)", "is_lifetime": false, \
        "will_renew": true, "is_in_grace_period": false, "is_refund": false
        """
    if !extra.isEmpty { text += ", " + extra }
    return text
}
