import EntitlementKit
import EntitlementKitAppStore
import Foundation
import Testing

/// `recognizes` claims only shapes no other format has; `snapshot` (the format named) reads the rest.
@Suite("App Store format detection", .timeLimit(.minutes(5)))
struct DetectionTests {
    typealias D = TestDocuments
    let adapter = AppStoreAdapter()

    static func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test(
        "the four documents are recognised",
        arguments: [
            #"{"data": [{"subscriptionGroupIdentifier": "1", "lastTransactions": []}]}"#,
            #"{"bundleId": "b", "signedTransactions": []}"#,
            #"["aGVhZGVy.cGF5bG9hZA.c2lnbmF0dXJl"]"#,
            #"[{"transactionId": "1"}, {"originalTransactionId": "2"}]"#,
            #"{"statuses": {"data": []}}"#,
            #"{"history": {"signedTransactions": []}, "transactions": []}"#,
        ])
    func recognised(_ text: String) throws {
        #expect(adapter.recognizes(try Self.parse(text)))
    }

    @Test(
        "other formats and ambiguous shapes are not",
        arguments: [
            // An empty statuses `data` is also an empty Qonversion list.
            #"{"environment": "Production", "data": []}"#,
            #"{"data": {"uid": "q", "permissions": []}}"#,
            #"{"request_date": "2025-06-01T00:00:00Z", "subscriber": {}}"#,
            #"{"schemaVersion": 2}"#,
            "[]",
            #"["not a jws"]"#,
            #"[{"id": "1"}]"#,
            #"{"statuses": {}, "subscriber": {}}"#,
            "{}",
            "42",
        ])
    func notRecognised(_ text: String) throws {
        #expect(!adapter.recognizes(try Self.parse(text)))
    }

    @Test("a shape left unclaimed is still read when the format is named")
    func namedFormatReadsUnclaimedShapes() throws {
        let empty = try adapter.snapshot(from: Data(#"{"environment": "Production", "data": []}"#.utf8), at: D.instant)
        #expect(empty.entitlements.isEmpty)
        #expect(empty.verification == .notRequested)
        #expect(try adapter.snapshot(from: Data("[]".utf8), at: D.instant).entitlements.isEmpty)
    }

    @Test("a document of no App Store shape says what was expected")
    func unrecognised() throws {
        let error = #expect(throws: DocumentError.self) {
            try adapter.snapshot(from: Data(#"{"subscriber": {}}"#.utf8), at: D.instant)
        }
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.path.description == "$")
    }
}
