import EntitlementKit
import EntitlementKitQonversion
import TestSupport
import Testing

/// Access is Qonversion's flag **and** the unified date rule, in every shape.
@Suite("Activity: flag and date", .timeLimit(.minutes(5)))
struct ActivityRuleTests {
    @Test(
        "v1: flag 1/0 (or true/false) and the expiry decide together",
        arguments: [
            ("1", "2025-06-10T00:00:00Z", true),
            ("1", "2025-05-31T00:00:00Z", false),  // a stale active: 1
            ("0", "2025-06-10T00:00:00Z", false),  // refunded or revoked before expiry
            ("0", "2025-05-31T00:00:00Z", false),
            ("true", "2025-06-10T00:00:00Z", true),
            ("false", "2025-06-10T00:00:00Z", false),
            ("true", "2025-05-31T00:00:00Z", false),
        ])
    func launchResultFlagAndDate(flag: String, expires: String, expected: Bool) throws {
        let snapshot = try qonversionSnapshot(launchResult(permission: premium(expires: expires, active: flag)))
        #expect(snapshot["premium"]?.isActive == expected)
        #expect(snapshot.activeEntitlementIds == (expected ? ["premium"] : []))
    }

    @Test func accessHoldsAtTheExpiryInstantAndEndsAfterIt() throws {
        let json = launchResult(permission: premium(expires: "2025-06-01T12:00:00Z"))
        #expect(try qonversionSnapshot(json, at: instant("2025-06-01T12:00:00Z"))["premium"]?.isActive == true)
        #expect(try qonversionSnapshot(json, at: instant("2025-06-01T12:00:00.001Z"))["premium"]?.isActive == false)
    }

    @Test func noExpiryFollowsTheFlag() throws {
        let lifetime = #""id": "lifetime", "active": 1, "renew_state": -1"#
        let refunded = #""id": "lifetime", "active": 0, "renew_state": -1, "expiration_timestamp": null"#
        #expect(try qonversionSnapshot(launchResult(permission: lifetime))["lifetime"]?.isActive == true)
        #expect(try qonversionSnapshot(launchResult(permission: refunded))["lifetime"]?.isActive == false)
    }

    @Test(
        "v3: the JSON boolean and the expiry in seconds",
        arguments: [
            ("true", "2025-06-10T00:00:00Z", true),
            ("true", "2025-05-31T00:00:00Z", false),
            ("false", "2025-06-10T00:00:00Z", false),
        ])
    func v3FlagAndDate(flag: String, expires: String, expected: Bool) throws {
        let json =
            #"{"object": "list", "data": [{"id": "premium", "active": \#(flag), "expires": \#(seconds(expires))}]}"#
        #expect(try qonversionSnapshot(json)["premium"]?.isActive == expected)
    }

    @Test(
        "v4: is_active and the ISO expiry",
        arguments: [
            ("true", "2025-06-01T12:00:00Z", true),
            ("true", "2025-06-01T11:59:59.999Z", false),
            ("false", "2026-01-01T00:00:00Z", false),
        ])
    func v4FlagAndDate(flag: String, expires: String, expected: Bool) throws {
        let json = """
            {"object": "list", "url": "/v4/users/QON_1/entitlements", "has_more": false, "data": [
              {"object": "user_entitlement", "id": "premium", "is_active": \(flag), "expires_at": "\(expires)"}]}
            """
        #expect(try qonversionSnapshot(json)["premium"]?.isActive == expected)
    }

    @Test func aReEvaluatedSnapshotLapsesAtTheExpiry() throws {
        let snapshot = try qonversionSnapshot(launchResult(permission: premium(expires: "2025-06-10T00:00:00Z")))
        #expect(snapshot.evaluated(at: instant("2025-06-10T00:00:00Z"))["premium"]?.isActive == true)
        #expect(snapshot.evaluated(at: instant("2025-06-10T00:00:01Z"))["premium"]?.isActive == false)
    }
}
