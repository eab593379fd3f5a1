import EntitlementKit
import EntitlementKitQonversion
import Foundation
import TestSupport

/// The instant the unit tests evaluate at unless they say otherwise.
let evaluationInstant = instant("2025-06-01T12:00:00Z")

/// Seconds since the epoch of `text`, as Qonversion's v1 and v3 wire formats send them.
func seconds(_ text: String) -> Int64 {
    instant(text).millisecondsSince1970 / 1000
}

/// Maps `json` with the Qonversion adapter at `at`.
func qonversionSnapshot(_ json: String, at: Date = evaluationInstant) throws(DocumentError) -> EntitlementSnapshot {
    try QonversionAdapter().snapshot(from: Data(json.utf8), at: at)
}

/// The error the adapter refuses `json` with, or `nil` when it maps it.
func qonversionFailure(_ json: String) -> DocumentError? {
    do throws(DocumentError) {
        _ = try qonversionSnapshot(json)
        return nil
    } catch {
        return error
    }
}

/// A v1 launch result around one permission object given as JSON members (without braces).
func launchResult(permission members: String) -> String {
    """
    {"success": true, "data": {"uid": "QON_test", "timestamp": \(seconds("2025-06-01T11:59:00Z")), "permissions": [{\(members)}]}}
    """
}

/// The members of a plain active App Store permission `premium`, to extend or override in tests.
func premium(expires: String = "2025-06-10T00:00:00Z", active: String = "1", extra: String = "") -> String {
    var text = """
        "id": "premium", "associated_product": "premium_monthly", "active": \(active), "renew_state": 1, \
        "source": "appstore", "started_timestamp": \(seconds("2025-05-10T00:00:00Z")), \
        "expiration_timestamp": \(seconds(expires))
        """
    if !extra.isEmpty { text += ", " + extra }
    return text
}

/// A v1 store transaction object (with braces).
func transaction(
    id: String, at date: String, environment: String = "production", ownership: String = "owner",
    type: String = "subscription_renewed", extra: String = ""
) -> String {
    var text = """
        {"transaction_id": "\(id)", "original_transaction_id": "1000", "transaction_timestamp": \(seconds(date)), \
        "environment": "\(environment)", "ownership_type": "\(ownership)", "type": "\(type)"
        """
    if !extra.isEmpty { text += ", " + extra }
    return text + "}"
}
