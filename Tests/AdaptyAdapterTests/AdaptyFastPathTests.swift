import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitFixtures
import EntitlementKitMigration
import Foundation
import Testing

/// Adapty's byte-level fast reader and its general (`JSONNode`) reader give the same snapshot or the same
/// located error on every Adapty fixture, every document of `Fixtures/malformed`, every cut point of the
/// fixtures, hand-made edits where the fast reader must give up, and deterministic byte mutations — through
/// `AdaptyAdapter.snapshot(from: Data)` and through the bulk decoder, bare and in an envelope. And the fast
/// reader really answers for the ordinary documents of all four shapes.
@Suite("Adapty fast path", .timeLimit(.minutes(5)))
struct AdaptyFastPathTests {
    private static let adapter = AdaptyAdapter()
    private static let now = instant("2025-06-01T12:00:00Z")

    private static var fastDecoder: SnapshotDecoder { SnapshotDecoder(adapters: [adapter]) }
    private static var generalDecoder: SnapshotDecoder {
        var decoder = fastDecoder
        decoder.usesFastPath = false
        return decoder
    }

    private typealias Answer = DecodingAnswer

    private static func fixtures() throws -> [FixtureScenario] {
        try FixtureCatalog.scenarios(provider: adapter.provider)
    }

    private static func malformed() throws -> [(String, Data)] {
        try FixtureCatalog.malformedDocuments().map { ($0.name, $0.data) }
    }

    /// Compares the paths on one document; returns whether the adapter's fast reader answered.
    @discardableResult
    private static func expectSameAnswers(_ data: Data, _ label: @autoclosure () -> String, records: Bool = true)
        -> Bool
    {
        let general = Answer { () throws(DocumentError) in try adapter.snapshot(from: JSONNode(parsing: data), at: now)
        }
        #expect(
            Answer { () throws(DocumentError) in try adapter.snapshot(from: data, at: now) } == general, "\(label())")
        let answered = adapter.fastSnapshot(data: data, at: now) != nil
        guard records else { return answered }
        var forms = [data]
        if let text = String(data: data, encoding: .utf8) {
            forms.append(Data(#"{"appUserId":"env-user","provider":"adapty","response":\#(text)}"#.utf8))
        }
        for record in forms {
            for format in [nil, adapter.provider] {
                let expected = Answer { () throws(DocumentError) in
                    try generalDecoder.snapshot(fromRecord: record, format: format, at: now)
                }
                let actual = Answer { () throws(DocumentError) in
                    try fastDecoder.snapshot(fromRecord: record, format: format, at: now)
                }
                #expect(actual == expected, "\(label()) as \(String(describing: format))")
            }
        }
        return answered
    }

    @Test func everyFixtureAndMalformedDocumentGetsTheSameAnswerOnBothPaths() throws {
        for scenario in try Self.fixtures() {
            Self.expectSameAnswers(try Data(contentsOf: scenario.documentURL), scenario.name)
        }
        for (name, data) in try Self.malformed() {
            Self.expectSameAnswers(data, name)
        }
    }

    /// A reader that always misses would pass the comparisons; this fails it.
    @Test func theFastReaderAnswersForEveryOrdinaryDocument() throws {
        var answered = 0
        for scenario in try Self.fixtures() {
            guard case .snapshot = scenario.expectation else { continue }
            let data = try Data(contentsOf: scenario.documentURL)
            let fast = Self.expectSameAnswers(data, scenario.name)
            #expect(fast, "\(scenario.name)")
            if fast { answered += 1 }
            // Named in the bulk decoder, the fast path answers too.
            if fast {
                #expect(
                    Self.fastDecoder.fastSnapshot(fromRecord: data, format: Self.adapter.provider, at: Self.now) != nil)
            }
        }
        #expect(answered >= 22)
    }

    @Test func everyCutPointOfEveryFixtureGetsTheSameAnswer() throws {
        for scenario in try Self.fixtures() {
            let bytes = [UInt8](try Data(contentsOf: scenario.documentURL))
            let step = max(1, bytes.count / 400)
            for cut in stride(from: 0, to: bytes.count, by: step) {
                Self.expectSameAnswers(Data(bytes[..<cut]), "\(scenario.name) cut at \(cut)", records: false)
            }
        }
    }

    /// Places where the fast reader must give up, each next to the ordinary document it differs from.
    @Test func editsWhereTheFastReaderMustGiveUp() throws {
        let level =
            #""id": "premium", "is_active": true, "vendor_product_id": "p", "store": "app_store", "expires_at": "2025-07-01T00:00:00Z""#
        let documents = [
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level)}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level)}}, "profile_id": "p2"}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level)}, "premium": {\#(level)}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"pre\u006dium": {\#(level)}}}"#,
            #"{"profile_id": "p1", "timestamp": 1.5e12, "paid_access_levels": {}}"#,
            #"{"profile_id": "p1", "timestamp": -1, "paid_access_levels": {}}"#,
            #"{"profile_id": "p1", "timestamp": 99999999999999999, "paid_access_levels": {}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "store": 3}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "id": "other"}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "is_lifetime": true}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": null}}"#,
            #"{"profile_id": "", "paid_access_levels": {}}"#,
            #"{"profile_id": "p1", "access_levels": []}"#,
            #"{"success": true, "profile_id": "p1"}"#,
            #"{"success": {"profile_id": "p1"}, "data": {"uid": "QON_1"}}"#,
            #"{"data": {"profile_id": "p1", "uid": "QON_1"}}"#,
            #"{"data": {"profile_id": "p1", "subscriptions": []}}"#,
            #"{"data": {"type": "adapty_analytics_profile", "id": "p2", "attributes": {"profile_id": "p1"}}}"#,
            #"{"data": {"type": "adapty_analytics_profile", "id": 7, "attributes": {"profile_id": "p1"}}}"#,
            #"{"data": {"type": "adapty_analytics_profile", "id": "p1", "attributes": {"profile_id": "p1"}}}"#,
            #"{"data": {"profile_id": null}}"#,
            #"{"data": {"customer_user_id": "x"}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": [{"access_level_id": "a", "store_product_id": "p"}, {"access_level_id": "a", "store_product_id": "q"}]}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": [{"access_level_id": "a", "store_product_id": "p", "offer": "intro"}]}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": [{"access_level_id": "a", "store_product_id": "p", "offer": {"category": "promotional", "offer_category": "introductory"}}]}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": [null]}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": null, "paid_access_levels": null}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": [], "paid_access_levels": {}}}"#,
            #"{"data": {"profile_id": "p1", "non_subscriptions": [{"purchased_at": "2025-01-01T00:00:00+00:00"}], "subscriptions": {}}}"#,
            #"{"success": {"profile_id": "p1"}, "data": {"profile_id": "p2", "access_levels": []}}"#,
            #"{"subscriber": {}, "profile_id": "p1"}"#,
            #"{"profile_id": "p1", "non_subscriptions": {"b": [{"purchased_at": "2025-01-02T00:00:00Z"}], "a": [{"purchased_at": "2025-01-02T00:00:00Z", "vendor_transaction_id": "t"}], "c": null}}"#,
            #"{"profile_id": "p1", "non_subscriptions": {"b": {}}}"#,
            // Enumerations sent in another JSON type: read by both, skipped values checked as strictly.
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "cancellation_reason": {"a": [1, true]}}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "cancellation_reason": {"a": 1, "a": 2}}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "active_introductory_offer_type": 1e999}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "active_promotional_offer_type": tru}}}"#,
            #"{"profile_id": "p1", "paid_access_levels": {"premium": {\#(level), "active_promotional_offer_type": -0.5}}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": [{"access_level_id": "a", "store_product_id": "p", "cancellation_reason": 5}]}}"#,
            // Ids that Swift's `==` calls equal and their bytes do not.
            #"{"profile_id": "p1", "paid_access_levels": {"K": {"id": "\u212A", "is_active": true, "vendor_product_id": "p"}}}"#,
            #"{"data": {"type": "adapty_analytics_profile", "id": "caf\u00e9", "attributes": {"profile_id": "cafe\u0301"}}}"#,
            #"{"data": {"type": "adapty_analytics_profile", "id": "café", "attributes": {"profile_id": "cafe\#u{301}"}}}"#,
            // `null` containers next to sent ones.
            #"{"data": {"profile_id": "p1", "paid_access_levels": null, "access_levels": [{"access_level_id": "a", "store_product_id": "p"}]}}"#,
            #"{"data": {"paid_access_levels": null, "profile_id": "p1", "subscriptions": [{"store_product_id": "p"}]}}"#,
            #"{"data": {"profile_id": "p1", "paid_access_levels": nul, "access_levels": []}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": null, "subscriptions": {}}}"#,
            #"{"data": {"profile_id": "p1", "access_levels": null, "paid_access_levels": {}}}"#,
        ]
        for document in documents {
            Self.expectSameAnswers(Data(document.utf8), document)
        }
    }

    @Test func mutatedDocumentsGetTheSameAnswerOnBothPaths() throws {
        var state: UInt64 = 0xADA_7717
        func below(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let replacements: [UInt8] = Array(#""\{}[],:0-1.e tnfu"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF]
        var seeds: [Data] = []
        for scenario in try Self.fixtures() { seeds.append(try Data(contentsOf: scenario.documentURL)) }
        seeds += try Self.malformed().filter { $0.0.hasPrefix("adapty") }.map(\.1)
        for seed in seeds where !seed.isEmpty {
            for _ in 0..<12 {
                var bytes = [UInt8](seed)
                for _ in 0...below(2) {
                    let index = below(bytes.count)
                    switch below(3) {
                    case 0: bytes.remove(at: index)
                    case 1: bytes.insert(replacements[below(replacements.count)], at: index)
                    default: bytes[index] = replacements[below(replacements.count)]
                    }
                    if bytes.isEmpty { break }
                }
                Self.expectSameAnswers(Data(bytes), "mutation of \(seed.count) bytes", records: false)
            }
        }
    }
}
