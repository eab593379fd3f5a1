import EntitlementKit
import EntitlementKitAdapty
import Foundation
import Testing

/// Detection by keys: the four shapes are claimed by Adapty's own members, whatever else they hold;
/// Qonversion's boolean `success`, its launch result and lists, RevenueCat's `subscriber` and unified
/// snapshots carry none of them and are not.
@Suite("Adapty format recognition", .timeLimit(.minutes(5)))
struct AdaptyFormatRecognitionTests {
    private func recognizes(_ json: String) throws -> Bool {
        AdaptyAdapter().recognizes(try JSONValue.parse(Data(json.utf8)))
    }

    @Test func theFourShapesAreClaimed() throws {
        #expect(try recognizes(#"{"data": {"type": "adapty_analytics_profile", "id": "p", "attributes": {}}}"#))
        #expect(try recognizes(#"{"data": {"profile_id": "p", "paid_access_levels": {}}}"#))
        #expect(try recognizes(#"{"data": {"profile_id": "p"}}"#))
        #expect(try recognizes(#"{"profile_id": "p"}"#))
        #expect(try recognizes(#"{"paid_access_levels": {}}"#))
        #expect(try recognizes(#"{"success": {"profile_id": "p"}}"#))
        #expect(try recognizes(#"{"data": {"profile_id": "p", "access_levels": []}}"#))
        #expect(try recognizes(#"{"data": {"profile_id": "p", "access_levels": null}}"#))
        #expect(try recognizes(#"{"data": {"profile_id": "p", "subscriptions": []}}"#))
    }

    @Test func otherVendorsAreNotClaimed() throws {
        // Qonversion: a boolean `success`, a launch result's `uid` / `permissions`, a list in `data`.
        #expect(try !recognizes(#"{"success": true}"#))
        #expect(try !recognizes(#"{"success": false, "data": {"message": "Invalid access token"}}"#))
        #expect(try !recognizes(#"{"success": true, "data": {"uid": "QON_1", "permissions": []}}"#))
        #expect(try !recognizes(#"{"object": "list", "data": []}"#))
        // RevenueCat and the unified form.
        #expect(try !recognizes(#"{"request_date": "2025-06-01T12:00:00Z", "subscriber": {"profile_id": "p"}}"#))
        #expect(try !recognizes(#"[]"#))
        #expect(try !recognizes(#"{"data": "profile"}"#))
    }

    /// Adapty adds fields: a member Adapty does not know never stops a claim. A document that another format
    /// claims as well (`uid` is Qonversion's, `schemaVersion` the unified form's) is refused as ambiguous by
    /// `FormatDetector` (FormatDetectionTests), not guessed away here.
    @Test func membersAdaptyDoesNotKnowDoNotStopAClaim() throws {
        #expect(try recognizes(#"{"data": {"profile_id": "p", "cross_placement_info": {}}, "meta": 1}"#))
        #expect(try recognizes(#"{"profile_id": "p", "last_active_at": "2025-06-01T12:00:00Z"}"#))
        #expect(try recognizes(#"{"data": {"uid": "QON_1", "profile_id": "p"}}"#))
        #expect(try recognizes(#"{"schemaVersion": 2, "profile_id": "p"}"#))
    }

    @Test func aBridgeReplyWithoutAProfileIsNamed() {
        let error = adaptyFailure(#"{"success": true}"#)
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.path.description == "success")
        let vendor = adaptyFailure(#"{"error": {"adapty_code": 1003, "message": "Unauthorized"}}"#)
        #expect(vendor?.kind == .vendorError)
        let server = adaptyFailure(#"{"errors": [], "error_code": "profile_does_not_exist", "status_code": 404}"#)
        #expect(server?.kind == .vendorError)
    }

    @Test func aV2ContainerInAV1ProfileIsRefusedRatherThanSkipped() {
        let error = adaptyFailure(#"{"profile_id": "p", "access_levels": [{"access_level_id": "premium"}]}"#)
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.path.description == "access_levels")
        let v1InV2 = adaptyFailure(#"{"data": {"profile_id": "p", "subscriptions": [], "paid_access_levels": {}}}"#)
        #expect(v1InV2?.kind == .wrongType)
    }

    /// A `null` container reads as empty in either layout, so it does not decide which one a `data` is:
    /// v2's arrays next to `"paid_access_levels": null` are read as v2.
    @Test func aNullV1ContainerDoesNotMakeAV2ProfileV1() throws {
        let level = #"{"access_level_id": "premium", "store_product_id": "pm", "expires_at": "2025-07-01T00:00:00Z"}"#
        let subscription = #"{"store_product_id": "pm", "store_transaction_id": "t1"}"#
        for paid in [#""paid_access_levels": null, "#, ""] {
            for containers in [
                #""access_levels": [\#(level)], "subscriptions": [\#(subscription)]"#,
                #""subscriptions": [\#(subscription)], "access_levels": [\#(level)]"#,
            ] {
                let json = #"{"data": {"profile_id": "p", \#(paid)\#(containers)}}"#
                #expect(try recognizes(json))
                let snapshot = try adaptySnapshot(json)
                #expect(snapshot.isActive("premium"), "\(json)")
                #expect(snapshot["premium"]?.transactions.first?.transactionId == "t1", "\(json)")
            }
        }
        // Only arrays besides it: v2 with no access levels, not a v1 profile with array containers.
        let arraysOnly =
            #"{"data": {"paid_access_levels": null, "profile_id": "p", "subscriptions": [\#(subscription)]}}"#
        #expect(try adaptySnapshot(arraysOnly).entitlements.isEmpty)
        // No container sent at all: still a profile, whichever `null` it carries.
        for containers in [
            #""paid_access_levels": null"#, #""access_levels": null"#,
            #""paid_access_levels": null, "access_levels": null"#,
        ] {
            #expect(try adaptySnapshot(#"{"data": {"profile_id": "p", \#(containers)}}"#).entitlements.isEmpty)
        }
        // A v1 container that is sent still makes the profile v1, and v2's arrays in it are refused.
        let mixed = adaptyFailure(
            #"{"data": {"profile_id": "p", "paid_access_levels": {}, "access_levels": [\#(level)]}}"#)
        #expect(mixed?.kind == .unrecognizedFormat && mixed?.path.description == "data.access_levels")
    }
}
