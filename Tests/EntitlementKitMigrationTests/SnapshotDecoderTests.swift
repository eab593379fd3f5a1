import EntitlementKit
import EntitlementKitMigration
import Foundation
import Testing

@Suite("SnapshotDecoder: format detection, unified input, JSON Lines envelopes", .timeLimit(.minutes(5)))
struct SnapshotDecoderTests {
    let decoder = SnapshotDecoder(adapters: [ToyAdapter()])
    let now = TestValues.now

    func data(_ text: String) -> Data { Data(text.utf8) }

    func documentError(_ body: () throws -> Void) -> DocumentError? {
        do {
            try body()
            return nil
        } catch {
            return error as? DocumentError
        }
    }

    @Test func formatNamesListTheAdaptersThenUnified() {
        #expect(decoder.formats == [ProviderID(rawValue: "toy"), .unified])
        #expect(decoder.isKnownFormat(.unified))
        #expect(!decoder.isKnownFormat(ProviderID(rawValue: "stripe")))
    }

    @Test func aVendorDocumentIsDetectedByItsAdapter() throws {
        let snapshot = try decoder.snapshot(
            from: data(#"{"toy": {"user": "alice", "entitlements": [{"id": "premium", "expires": null}]}}"#), at: now)
        #expect(snapshot.provider == ProviderID(rawValue: "toy"))
        #expect(snapshot.activeEntitlementIds == ["premium"])
    }

    @Test func aUnifiedSnapshotIsDetectedBySchemaVersionAndReEvaluated() throws {
        let original = TestValues.snapshot(
            "alice", provider: .revenueCat, [TestValues.entitlement("premium", expires: "2025-07-01T00:00:00Z")])
        let later = TestValues.date("2025-08-01T00:00:00Z")
        let snapshot = try decoder.snapshot(from: original.canonicalJSONData(), at: later)
        #expect(snapshot.provider == .revenueCat)
        #expect(snapshot.evaluatedAt == later)
        #expect(snapshot.activeEntitlementIds.isEmpty)
    }

    @Test func aDocumentOfNoKnownFormatIsRefusedAndSaysSo() {
        let error = documentError { _ = try decoder.snapshot(from: data(#"{"subscriber": {}}"#), at: now) }
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.description == "$: is not a document of any known format (toy, unified)")
    }

    @Test func aDocumentTwoFormatsClaimIsRefusedAsAmbiguous() {
        let greedy = SnapshotDecoder(adapters: [ToyAdapter(), GreedyAdapter()])
        let error = documentError { _ = try greedy.snapshot(from: data(#"{"toy": {"entitlements": []}}"#), at: now) }
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.reason.contains("toy, greedy") == true)
    }

    @Test func aNamedFormatSkipsDetection() {
        // No format claims this document, so the named one reads it and says what it lacks.
        let error = documentError {
            _ = try decoder.snapshot(from: data(#"{"subscriber": {}}"#), format: .unified, at: now)
        }
        #expect(error?.kind == .missingField)
        #expect(error?.path.description == "schemaVersion")
    }

    @Test func aDocumentOfAnotherFormatThanTheNamedOneSaysWhatItLooksLike() {
        let toy = documentError {
            _ = try decoder.snapshot(from: data(#"{"toy": {"entitlements": []}}"#), format: .unified, at: now)
        }
        #expect(toy?.kind == .unrecognizedFormat)
        #expect(
            toy?.description
                == "$: looks like a toy document, not unified as requested; name toy, or let the format be detected")

        let unified = TestValues.snapshot("alice", [TestValues.entitlement("premium")]).canonicalJSONData()
        let named = documentError {
            _ = try decoder.snapshot(from: unified, format: ProviderID(rawValue: "toy"), at: now)
        }
        #expect(
            named?.description
                == "$: looks like a unified snapshot, not toy as requested; name unified, or let the format be detected"
        )

        // Inside an envelope the response is judged the same way, at its own path.
        let record = #"{"appUserId": "a", "provider": "unified", "response": {"toy": {"entitlements": []}}}"#
        let enveloped = documentError { _ = try decoder.snapshot(fromRecord: data(record), at: now) }
        #expect(enveloped?.path.description == "response")
        #expect(enveloped?.reason.hasPrefix("looks like a toy document, not unified as requested") == true)
    }

    @Test func aBackendsErrorBodyGetsItsAdaptersMessageAlsoWhenDetecting() {
        let body = data(#"{"toyError": "quota exceeded"}"#)
        let detected = documentError { _ = try decoder.snapshot(from: body, at: now) }
        let named = documentError { _ = try decoder.snapshot(from: body, format: ProviderID(rawValue: "toy"), at: now) }
        #expect(detected?.kind == .vendorError)
        #expect(detected?.description == #"toyError: "quota exceeded" is a toy error response"#)
        #expect(detected == named)
    }

    @Test func anEnvelopesAppUserIdReplacesTheResponses() throws {
        let record =
            #"{"appUserId": "alice@example.com", "provider": "toy", "response": {"toy": {"user": "QON_1", "entitlements": []}}}"#
        let snapshot = try decoder.snapshot(fromRecord: data(record), at: now)
        #expect(snapshot.appUserId == "alice@example.com")
    }

    @Test func anEnvelopeWithoutAppUserIdKeepsTheResponses() throws {
        let snapshot = try decoder.snapshot(
            fromRecord: data(#"{"response": {"toy": {"user": "bob", "entitlements": []}}}"#), at: now)
        #expect(snapshot.appUserId == "bob")
    }

    @Test func errorsInsideAnEnvelopeNameThePathUnderResponse() {
        let record =
            #"{"appUserId": "a", "response": {"toy": {"entitlements": [{"id": "premium", "expires": "next tuesday"}]}}}"#
        let error = documentError { _ = try decoder.snapshot(fromRecord: data(record), at: now) }
        #expect(error?.description == #"response.toy.entitlements[0].expires: "next tuesday" is not an ISO 8601 date"#)
    }

    @Test(arguments: [
        (#"{"provider": "stripe", "response": {}}"#, "provider: \"stripe\" is not a known provider (toy, unified)"),
        (#"{"appUserId": "", "response": {}}"#, "appUserId: \"\" must not be empty"),
        (#"{"appUserId": 7, "response": {}}"#, "appUserId: 7 must be a string, not a number"),
        (#"{"response": []}"#, "response: [] must be an object (the vendor response), not an array"),
    ])
    func malformedEnvelopesAreRefused(record: String, message: String) {
        let error = documentError { _ = try decoder.snapshot(fromRecord: data(record), at: now) }
        #expect(error?.description == message)
    }

    @Test func anEnvelopesProviderMustAgreeWithTheRequestedFormat() {
        let record = #"{"provider": "toy", "response": {"toy": {"entitlements": []}}}"#
        let error = documentError { _ = try decoder.snapshot(fromRecord: data(record), format: .unified, at: now) }
        #expect(error?.kind == .inconsistent)
        #expect(error?.path.description == "provider")
    }
}
