import EntitlementKit
import EntitlementKitQonversion
import Testing

@Suite("Recognising Qonversion documents", .timeLimit(.minutes(5)))
struct FormatRecognitionTests {
    let adapter = QonversionAdapter()

    func recognizes(_ json: String) throws -> Bool {
        adapter.recognizes(try JSONValue.parse(json))
    }

    @Test func providerIdIsQonversion() {
        #expect(adapter.provider == .qonversion)
    }

    @Test(
        "claims each Qonversion shape",
        arguments: [
            #"{"success": true, "data": {"uid": "QON_1", "permissions": []}}"#,
            #"{"success": true, "data": {"uid": "QON_1"}}"#,
            #"{"success": true, "data": {"permissions": []}}"#,
            #"{"success": false, "data": {}}"#,
            #"{"data": {"permissions": [{"id": "premium", "active": 1}]}}"#,
            #"{"success": false, "data": {"message": "Access token is invalid"}}"#,
            #"{"success": false}"#,
            #"{"object": "list", "data": [{"id": "premium", "active": true}]}"#,
            #"{"data": [{"id": "premium", "active": false}]}"#,
            #"{"data": []}"#,
            #"{"object": "list", "data": []}"#,
            #"{"object": "list", "url": "/v4/users/QON_1/entitlements", "data": [], "has_more": false}"#,
            #"{"object": "list", "data": [{"object": "user_entitlement", "id": "premium", "is_active": true}]}"#,
            #"{"data": [{"id": "premium", "is_active": true}]}"#,
        ])
    func claims(_ json: String) throws {
        #expect(try recognizes(json))
    }

    @Test(
        "leaves other documents alone",
        arguments: [
            #"{"request_date": "2025-06-01T12:00:00Z", "subscriber": {"entitlements": {}, "subscriptions": {}}}"#,
            #"{"subscriber": {}, "data": []}"#,
            #"{"schemaVersion": 1, "provider": "qonversion", "entitlements": {}}"#,
            #"{"schemaVersion": 1, "data": []}"#,
            #"{}"#,
            #"[]"#,
            #""premium""#,
            #"{"data": "premium"}"#,
            #"{"data": {"anon_id": "QON_1"}}"#,
            #"{"success": true, "data": {}}"#,
            #"{"success": true, "data": {"status": "OK"}}"#,
            #"{"status": "OK"}"#,
            #"{"success": true, "data": {"products_enriched": {"premium": {"intro_eligibility_status": "eligible"}}}}"#,
            #"{"success": true, "data": {"uid": null}}"#,
            #"{"data": [{"name": "premium"}]}"#,
            #"{"data": [1, 2]}"#,
            #"{"error": {"type": "resource", "code": "not_found", "message": "User not found"}}"#,
        ])
    func declines(_ json: String) throws {
        #expect(try !recognizes(json))
    }
}
