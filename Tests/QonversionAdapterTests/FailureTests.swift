import EntitlementKit
import EntitlementKitQonversion
import Testing

/// Fail closed: every refusal is a located ``DocumentError`` with the exact path, never a snapshot.
@Suite("Failures", .timeLimit(.minutes(5)))
struct FailureTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        let kind: DocumentError.Kind
        let path: String
        var testDescription: String { name }
    }

    static let envelopeCases: [Case] = [
        Case(
            name: "success false",
            json: #"{"success": false, "data": {"permissions": [{"id": "premium", "active": 1}]}}"#,
            kind: .vendorError, path: "success"),
        Case(name: "success false without data", json: #"{"success": false}"#, kind: .vendorError, path: "success"),
        Case(
            name: "success not a boolean", json: #"{"success": "true", "data": {"permissions": []}}"#, kind: .wrongType,
            path: "success"),
        Case(name: "data missing", json: #"{"success": true}"#, kind: .missingField, path: "data"),
        Case(name: "data null", json: #"{"success": true, "data": null}"#, kind: .missingField, path: "data"),
        Case(name: "data a string", json: #"{"success": true, "data": "ok"}"#, kind: .wrongType, path: "data"),
        Case(
            name: "empty data: not a launch result", json: #"{"success": true, "data": {}}"#,
            kind: .unrecognizedFormat, path: "data"),
        Case(
            name: "attribution reply", json: #"{"success": true, "data": {"status": "OK"}}"#,
            kind: .unrecognizedFormat, path: "data"),
        Case(
            name: "eligibility reply",
            json: #"{"success": true, "data": {"products_enriched": {"pro": {"intro_eligibility_status": "x"}}}}"#,
            kind: .unrecognizedFormat, path: "data"),
        Case(
            name: "identity reply", json: #"{"success": true, "data": {"anon_id": "QON_1"}}"#,
            kind: .unrecognizedFormat, path: "data"),
        Case(
            name: "null uid and nothing else", json: #"{"success": true, "data": {"uid": null}}"#,
            kind: .unrecognizedFormat, path: "data"),
        Case(name: "bare attribution status", json: #"{"status": "OK"}"#, kind: .unrecognizedFormat, path: "$"),
        Case(
            name: "permissions an object",
            json: #"{"success": true, "data": {"permissions": {"premium": {"active": 1}}}}"#,
            kind: .wrongType, path: "data.permissions"),
        Case(
            name: "permissions null", json: #"{"success": true, "data": {"permissions": null}}"#,
            kind: .wrongType, path: "data.permissions"),
        Case(
            name: "uid not a string", json: #"{"data": {"uid": 42, "permissions": []}}"#, kind: .wrongType,
            path: "data.uid"),
        Case(
            name: "timestamp in milliseconds", json: #"{"data": {"timestamp": 1748779200000000, "permissions": []}}"#,
            kind: .invalidValue, path: "data.timestamp"),
        Case(
            name: "apple_extra not an object", json: #"{"data": {"apple_extra": "142", "permissions": []}}"#,
            kind: .wrongType, path: "data.apple_extra"),
        Case(name: "root an array", json: #"[{"id": "premium", "active": 1}]"#, kind: .wrongType, path: "$"),
        Case(
            name: "RevenueCat document",
            json: #"{"subscriber": {"entitlements": {}}, "request_date": "2025-06-01T12:00:00Z"}"#,
            kind: .unrecognizedFormat, path: "$"),
        Case(
            name: "unified snapshot", json: #"{"schemaVersion": 1, "provider": "qonversion"}"#,
            kind: .unrecognizedFormat, path: "$"),
        Case(name: "empty object", json: "{}", kind: .unrecognizedFormat, path: "$"),
        Case(
            name: "REST error body",
            json: #"{"error": {"type": "resource", "code": "not_found", "message": "User not found"}, "_meta": {}}"#,
            kind: .vendorError, path: "error"),
        Case(
            name: "truncated", json: #"{"success": true, "data": {"permissions": [{"id": "prem"#, kind: .syntax,
            path: "data.permissions[0].id"),
        Case(
            name: "duplicate key", json: #"{"data": {"permissions": [{"id": "a", "active": 0, "active": 1}]}}"#,
            kind: .syntax,
            path: "data.permissions[0].active"),
    ]

    static let elementCases: [Case] = [
        Case(
            name: "element not an object", json: #"{"success": true, "data": {"permissions": ["premium"]}}"#,
            kind: .wrongType, path: "data.permissions[0]"),
        Case(
            name: "id missing", json: launchResult(permission: #""active": 1"#), kind: .missingField,
            path: "data.permissions[0].id"),
        Case(
            name: "id null", json: launchResult(permission: #""id": null, "active": 1"#), kind: .missingField,
            path: "data.permissions[0].id"),
        Case(
            name: "id empty", json: launchResult(permission: #""id": "", "active": 1"#), kind: .invalidValue,
            path: "data.permissions[0].id"),
        Case(
            name: "id a number", json: launchResult(permission: #""id": 7, "active": 1"#), kind: .wrongType,
            path: "data.permissions[0].id"),
        Case(
            name: "active missing", json: launchResult(permission: #""id": "premium""#), kind: .missingField,
            path: "data.permissions[0].active"),
        Case(
            name: "active a string", json: launchResult(permission: #""id": "premium", "active": "1""#),
            kind: .wrongType,
            path: "data.permissions[0].active"),
        Case(
            name: "active 2", json: launchResult(permission: #""id": "premium", "active": 2"#), kind: .invalidValue,
            path: "data.permissions[0].active"),
        Case(
            name: "active -1", json: launchResult(permission: #""id": "premium", "active": -1"#), kind: .invalidValue,
            path: "data.permissions[0].active"),
        Case(
            name: "active 0.5", json: launchResult(permission: #""id": "premium", "active": 0.5"#), kind: .invalidValue,
            path: "data.permissions[0].active"),
        Case(
            name: "active null", json: launchResult(permission: #""id": "premium", "active": null"#),
            kind: .missingField,
            path: "data.permissions[0].active"),
        Case(
            name: "expiration a string",
            json: launchResult(permission: #""id": "premium", "active": 1, "expiration_timestamp": "1749542400""#),
            kind: .wrongType, path: "data.permissions[0].expiration_timestamp"),
        Case(
            name: "expiration in milliseconds",
            json: launchResult(permission: #""id": "premium", "active": 1, "expiration_timestamp": 1749542400000"#),
            kind: .invalidValue, path: "data.permissions[0].expiration_timestamp"),
        Case(
            name: "started in milliseconds",
            json: launchResult(permission: #""id": "premium", "active": 1, "started_timestamp": 1746864000000"#),
            kind: .invalidValue, path: "data.permissions[0].started_timestamp"),
        Case(
            name: "renews_count negative",
            json: launchResult(permission: #""id": "premium", "active": 1, "renews_count": -1"#),
            kind: .invalidValue, path: "data.permissions[0].renews_count"),
        Case(
            name: "renews_count a string",
            json: launchResult(permission: #""id": "premium", "active": 1, "renews_count": "3""#),
            kind: .wrongType, path: "data.permissions[0].renews_count"),
        Case(
            name: "store_transactions an object",
            json: launchResult(permission: #""id": "premium", "active": 1, "store_transactions": {}"#),
            kind: .wrongType, path: "data.permissions[0].store_transactions"),
        Case(
            name: "transaction not an object",
            json: launchResult(permission: #""id": "premium", "active": 1, "store_transactions": ["t1"]"#),
            kind: .wrongType, path: "data.permissions[0].store_transactions[0]"),
        Case(
            name: "transaction date an ISO string",
            json: launchResult(
                permission:
                    #""id": "premium", "active": 1, "store_transactions": [{"transaction_timestamp": "2025-05-10T00:00:00Z"}]"#
            ),
            kind: .wrongType, path: "data.permissions[0].store_transactions[0].transaction_timestamp"),
        Case(
            name: "revoke date in milliseconds",
            json: launchResult(
                permission:
                    #""id": "premium", "active": 1, "store_transactions": [{"transaction_revoke_timestamp": 1747728000000}]"#
            ),
            kind: .invalidValue, path: "data.permissions[0].store_transactions[0].transaction_revoke_timestamp"),
        Case(
            name: "transaction id a fraction",
            json: launchResult(
                permission: #""id": "premium", "active": 1, "store_transactions": [{"transaction_id": 2000000100.5}]"#),
            kind: .invalidValue, path: "data.permissions[0].store_transactions[0].transaction_id"),
        Case(
            name: "transaction id a whole number written with a fraction",
            json: launchResult(
                permission: #""id": "premium", "active": 1, "store_transactions": [{"transaction_id": 2000000100.0}]"#),
            kind: .invalidValue, path: "data.permissions[0].store_transactions[0].transaction_id"),
        Case(
            name: "transaction id with an exponent",
            json: launchResult(
                permission: #""id": "premium", "active": 1, "store_transactions": [{"transaction_id": 2e9}]"#),
            kind: .invalidValue, path: "data.permissions[0].store_transactions[0].transaction_id"),
        Case(
            name: "transaction id an integer too large to hold",
            json: launchResult(
                permission:
                    #""id": "premium", "active": 1, "store_transactions": [{"transaction_id": 99999999999999999999}]"#),
            kind: .invalidValue, path: "data.permissions[0].store_transactions[0].transaction_id"),
        Case(
            name: "transaction id negative",
            json: launchResult(
                permission: #""id": "premium", "active": 1, "store_transactions": [{"transaction_id": -2000000100}]"#),
            kind: .invalidValue, path: "data.permissions[0].store_transactions[0].transaction_id"),
        Case(
            name: "transaction id a boolean",
            json: launchResult(
                permission: #""id": "premium", "active": 1, "store_transactions": [{"transaction_id": true}]"#),
            kind: .wrongType, path: "data.permissions[0].store_transactions[0].transaction_id"),
        Case(
            name: "original transaction id an object",
            json: launchResult(
                permission:
                    #""id": "premium", "active": 1, "store_transactions": [{"original_transaction_id": {"id": 1}}]"#),
            kind: .wrongType, path: "data.permissions[0].store_transactions[0].original_transaction_id"),
    ]

    static let listCases: [Case] = [
        Case(name: "v3 list without data", json: #"{"object": "list"}"#, kind: .missingField, path: "data"),
        Case(
            name: "v3 item without id", json: #"{"data": [{"active": true}]}"#, kind: .missingField, path: "data[0].id"),
        Case(
            name: "v3 active a string", json: #"{"data": [{"id": "premium", "active": "true"}]}"#, kind: .wrongType,
            path: "data[0].active"),
        Case(
            name: "v3 expires an ISO string",
            json: #"{"data": [{"id": "premium", "active": true, "expires": "2025-06-10T00:00:00Z"}]}"#,
            kind: .wrongType, path: "data[0].expires"),
        Case(
            name: "v3 product not an object",
            json: #"{"data": [{"id": "premium", "active": true, "product": "premium_annual"}]}"#,
            kind: .wrongType, path: "data[0].product"),
        Case(
            name: "v3 subscription not an object",
            json: #"{"data": [{"id": "premium", "active": true, "product": {"product_id": "p", "subscription": []}}]}"#,
            kind: .wrongType, path: "data[0].product.subscription"),
        Case(
            name: "v3 non-object item in a list", json: #"{"object": "list", "data": [["premium"]]}"#, kind: .wrongType,
            path: "data[0]"),
        Case(
            name: "v3 second item without active", json: #"{"data": [{"id": "a", "active": true}, {"id": "b"}]}"#,
            kind: .missingField, path: "data[1].active"),
        Case(
            name: "v4 has_more true",
            json: #"{"object": "list", "url": "/v4/users/QON_1/entitlements", "data": [], "has_more": true}"#,
            kind: .invalidValue, path: "has_more"),
        Case(
            name: "v4 has_more a string",
            json: #"{"object": "list", "url": "/v4/users/QON_1/entitlements", "data": [], "has_more": "false"}"#,
            kind: .wrongType, path: "has_more"),
        Case(
            name: "v4 list without data",
            json: #"{"object": "list", "url": "/v4/users/QON_1/entitlements", "has_more": false}"#,
            kind: .missingField, path: "data"),
        Case(
            name: "v4 is_active missing",
            json: #"{"object": "list", "data": [{"object": "user_entitlement", "id": "premium"}]}"#,
            kind: .missingField, path: "data[0].is_active"),
        Case(
            name: "v4 expires_at in seconds",
            json:
                #"{"object": "list", "has_more": false, "data": [{"id": "premium", "is_active": true, "expires_at": 1749542400}]}"#,
            kind: .wrongType, path: "data[0].expires_at"),
        Case(
            name: "v4 expires_at not a date",
            json:
                #"{"object": "list", "has_more": false, "data": [{"id": "premium", "is_active": true, "expires_at": "next tuesday"}]}"#,
            kind: .invalidValue, path: "data[0].expires_at"),
        Case(
            name: "v4 started_at without a time zone",
            json:
                #"{"object": "list", "has_more": false, "data": [{"id": "premium", "is_active": true, "started_at": "2025-03-15T12:30:00"}]}"#,
            kind: .invalidValue, path: "data[0].started_at"),
        Case(
            name: "v4 duplicate ids",
            json:
                #"{"object": "list", "has_more": false, "data": [{"id": "a", "is_active": false}, {"id": "a", "is_active": true}]}"#,
            kind: .inconsistent, path: "data[1].id"),
    ]

    @Test("envelope", arguments: envelopeCases)
    func envelope(_ failure: Case) { expect(failure) }

    @Test("entitlement and transaction elements", arguments: elementCases)
    func element(_ failure: Case) { expect(failure) }

    @Test("REST lists", arguments: listCases)
    func list(_ failure: Case) { expect(failure) }

    func expect(_ failure: Case, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error = qonversionFailure(failure.json) else {
            Issue.record("\(failure.name): mapped instead of failing", sourceLocation: sourceLocation)
            return
        }
        #expect(error.kind == failure.kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.path.description == failure.path, "\(error)", sourceLocation: sourceLocation)
    }

    @Test func duplicateIdsNameBothElements() throws {
        let json = """
            {"data": {"permissions": [{"id": "premium", "active": 0}, {"id": "other", "active": 1}, {"id": "premium", "active": 1}]}}
            """
        let error = try #require(qonversionFailure(json))
        #expect(error.kind == .inconsistent)
        #expect(error.path.description == "data.permissions[2].id")
        #expect(error.value == #""premium""#)
        #expect(error.reason.contains("data.permissions[0].id"))
    }

    @Test func anElementWithoutAnIdFailsEvenWhenOthersAreFine() throws {
        let json =
            #"{"data": {"permissions": [{"id": "premium", "active": 1}, {"active": 1, "associated_product": "x"}]}}"#
        let error = try #require(qonversionFailure(json))
        #expect(error.description == "data.permissions[1].id: is required but missing")
    }

    @Test func aFailedEnvelopeQuotesTheServerMessage() throws {
        let error = try #require(
            qonversionFailure(#"{"success": false, "data": {"code": 10003, "message": "Access token is invalid"}}"#))
        #expect(error.description == "success: false means the request failed: Access token is invalid")
    }

    @Test func aWrongFlagQuotesTheValue() throws {
        let error = try #require(qonversionFailure(launchResult(permission: #""id": "premium", "active": "yes""#)))
        #expect(error.description == #"data.permissions[0].active: "yes" must be 0 or 1 or a boolean, not a string"#)
    }

    @Test func aPartialV4ListSaysWhy() throws {
        let error = try #require(
            qonversionFailure(
                #"{"object": "list", "url": "/v4/users/QON_1/entitlements", "data": [], "has_more": true, "next_cursor": "c"}"#
            ))
        #expect(error.value == "true")
        #expect(error.reason.contains("partial"))
    }
}
