import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import Testing

/// Qonversion's byte-level fast reader and its general (`JSONNode`) reader give the same snapshot or the
/// same located error on every Qonversion fixture, every document of `Fixtures/malformed`, hand-made edits
/// at each place where the fast reader must give up, and deterministic byte mutations of all of them —
/// through `QonversionAdapter.snapshot(from: Data)` and through the bulk decoder, bare and in envelopes,
/// with the format named and detected. And the fast reader really answers for the ordinary documents.
@Suite(.timeLimit(.minutes(5))) struct QonversionFastPathTests {
    private static let adapter = QonversionAdapter()
    private static let now = Date(millisecondsSince1970: 1_757_930_400_000)  // 2025-09-15T10:00:00Z

    /// Fixtures the fast reader leaves to the general one although they map, with the reason.
    private static let mappedButLeftToTheGeneralReader: [String: String] = [
        "numeric-transaction-ids": "transaction ids written as JSON integers"
    ]

    private static var fastDecoder: SnapshotDecoder {
        SnapshotDecoder(adapters: [RevenueCatAdapter(), adapter])
    }

    private static var generalDecoder: SnapshotDecoder {
        var decoder = fastDecoder
        decoder.usesFastPath = false
        return decoder
    }

    private static func fixtures() throws -> [FixtureScenario] {
        try FixtureCatalog.scenarios(provider: .qonversion)
    }

    private static func malformedDocuments() throws -> [(name: String, data: Data)] {
        try FixtureCatalog.malformedDocuments()
    }

    fileprivate enum Answer: Equatable {
        case snapshot(EntitlementSnapshot, String)
        case failure(DocumentError)

        init(_ body: () throws(DocumentError) -> EntitlementSnapshot) {
            do {
                let snapshot = try body()
                self = .snapshot(snapshot, snapshot.canonicalJSON(compact: true))
            } catch {
                self = .failure(error)
            }
        }
    }

    /// Checks one document every way it can be read; returns how many of those ways the fast reader
    /// answered.
    @discardableResult
    private static func expectSameAnswers(_ data: Data, _ label: @autoclosure () -> String) -> Int {
        var answeredFast = 0
        let general = Answer { () throws(DocumentError) in try adapter.snapshot(from: JSONNode(parsing: data), at: now)
        }
        #expect(
            Answer { () throws(DocumentError) in try adapter.snapshot(from: data, at: now) } == general, "\(label())")
        if adapter.fastSnapshot(data: data, at: now) != nil { answeredFast += 1 }

        var records = [data]
        if let text = String(data: data, encoding: .utf8) {
            records.append(Data(#"{"appUserId":"env-user","provider":"qonversion","response":\#(text)}"#.utf8))
            records.append(Data(#"{"response":\#(text),"appUserId":null}"#.utf8))
        }
        for record in records {
            for format in [nil, ProviderID.qonversion] {
                let expected = Answer { () throws(DocumentError) in
                    try generalDecoder.snapshot(fromRecord: record, format: format, at: now)
                }
                let actual = Answer { () throws(DocumentError) in
                    try fastDecoder.snapshot(fromRecord: record, format: format, at: now)
                }
                #expect(actual == expected, "\(label()) as \(String(describing: format))")
                if fastDecoder.fastSnapshot(fromRecord: record, format: format, at: now) != nil { answeredFast += 1 }
            }
        }
        return answeredFast
    }

    @Test func everyFixtureAndMalformedDocumentGetsTheSameAnswerOnBothPaths() throws {
        for scenario in try Self.fixtures() {
            Self.expectSameAnswers(try Data(contentsOf: scenario.documentURL), scenario.name)
        }
        let malformed = try Self.malformedDocuments()
        #expect(malformed.count > 50)
        for (name, data) in malformed {
            Self.expectSameAnswers(data, name)
        }
    }

    /// A reader that always misses would pass the comparisons; this fails it.
    @Test func theFastReaderAnswersForEveryOrdinaryDocument() throws {
        var ordinary = 0
        for scenario in try Self.fixtures() {
            guard case .snapshot = scenario.expectation,
                Self.mappedButLeftToTheGeneralReader[scenario.name] == nil
            else { continue }
            ordinary += 1
            let data = try Data(contentsOf: scenario.documentURL)
            // The adapter itself, and the bulk decoder bare and in two envelopes, named and detected.
            #expect(Self.expectSameAnswers(data, scenario.name) == 7, "\(scenario.name)")
        }
        #expect(ordinary >= 20)
        for document in Self.benchShapedDocuments {
            #expect(Self.expectSameAnswers(Data(document.utf8), document) == 7, "\(document)")
        }
    }

    /// Launch results as the benchmark writes them: 0/1 and boolean flags, integer and named renew states,
    /// escapes and non-ASCII text, `null` offer codes, products and offerings the reader skips.
    private static let benchShapedDocuments = [
        #"{"success":true,"data":{"uid":"QON_0a1b","timestamp":1757930398,"apple_extra":{"original_application_version":"1.7"},"products":[{"id":"pro_annual","store_id":"com.example.pro_annual","type":1,"duration":4}],"user_products":[],"offerings":[{"id":"main","tag":1,"products":[]}],"permissions":[{"id":"pro","associated_product":"pro_annual","active":1,"renew_state":-1,"source":"appstore","current_period_type":"regular","grant_type":"purchase","started_timestamp":1740000000,"trial_start_timestamp":null,"first_purchase_timestamp":1740000000,"last_purchase_timestamp":1757000000,"expiration_timestamp":1788536000,"auto_renew_disable_timestamp":null,"last_activated_offer_code":"PROMO\u00c9T\u00c9","renews_count":11,"store_transactions":[{"original_transaction_id":"2000000000000001","transaction_id":"2000000000000002","transaction_timestamp":1740000000,"expiration_timestamp":1742592000,"environment":"sandbox","ownership_type":"family_sharing","type":"trial_started","offer_code":"VIP\/2025"}]},{"id":"thèmes","associated_product":"themes_monthly","active":false,"renew_state":"cancelled","source":"promo","current_period_type":"trial","grant_type":"offer_code","started_timestamp":1700000000,"trial_start_timestamp":null,"first_purchase_timestamp":1700000000,"last_purchase_timestamp":1750000000,"expiration_timestamp":1752592000,"auto_renew_disable_timestamp":1750003600,"last_activated_offer_code":null,"renews_count":0,"store_transactions":[]}]}}"#,
        #"{ "success" : true , "data" : { "permissions" : [ { "id" : "a" , "active" : true } ] , "uid" : "" } }"#,
        #"{"data":{"uid":"QON_x","permissions":[]}}"#,
    ]

    @Test func mutatedDocumentsGetTheSameAnswerOnBothPaths() throws {
        var random = MutationRandom(seed: 0x0051_0AF7)
        let replacements: [UInt8] = Array(#""\{}[],:0-1.e tnfu"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF, 0xED, 0xA0]
        var seeds: [Data] = []
        for scenario in try Self.fixtures() {
            let data = try Data(contentsOf: scenario.documentURL)
            seeds.append(data)
            // The compact form has other key orders (`data` before `object`, `has_more`, `success`).
            if let compact = try? JSONValue.parse(data).compactText { seeds.append(Data(compact.utf8)) }
        }
        seeds += try Self.malformedDocuments().filter { $0.name.hasPrefix("qonversion") }.map(\.data)
        seeds += Self.benchShapedDocuments.map { Data($0.utf8) }
        var compared = 0
        var answeredFast = 0
        for seed in seeds where !seed.isEmpty && seed.count < 8_000 {
            for _ in 0..<10 {
                var bytes = [UInt8](seed)
                for _ in 0...random.below(2) {
                    let index = random.below(bytes.count)
                    switch random.below(4) {
                    case 0: bytes.remove(at: index)
                    case 1: bytes.insert(replacements[random.below(replacements.count)], at: index)
                    case 2: bytes[index] = replacements[random.below(replacements.count)]
                    default:
                        // A copy of a stretch of the document: duplicate keys, repeated members and elements.
                        let end = min(bytes.count, index + 1 + random.below(60))
                        bytes.insert(contentsOf: bytes[index..<end], at: random.below(bytes.count))
                    }
                    if bytes.isEmpty { bytes = [0x7B] }
                }
                let data = Data(bytes)
                let general = Answer { () throws(DocumentError) in
                    try Self.adapter.snapshot(from: JSONNode(parsing: data), at: Self.now)
                }
                #expect(
                    Answer { () throws(DocumentError) in try Self.adapter.snapshot(from: data, at: Self.now) }
                        == general,
                    "\(String(decoding: data, as: UTF8.self))")
                let expected = Answer { () throws(DocumentError) in
                    try Self.generalDecoder.snapshot(fromRecord: data, at: Self.now)
                }
                #expect(
                    Answer { () throws(DocumentError) in try Self.fastDecoder.snapshot(fromRecord: data, at: Self.now) }
                        == expected, "\(String(decoding: data, as: UTF8.self))")
                compared += 1
                if Self.adapter.fastSnapshot(data: data, at: Self.now) != nil { answeredFast += 1 }
            }
        }
        #expect(compared > 800)
        // Mutations where the mapping does not look (skipped members, whitespace) still take the fast path.
        #expect(answeredFast > 50, "\(answeredFast) of \(compared) mutated documents answered by the fast path")
    }
}

extension QonversionFastPathTests {
    /// Hand-made edits of fixtures (in their compact form: keys sorted, so `data` comes first) at each
    /// place where the fast reader must give up or answer exactly as the general reader does.
    @Test(arguments: [
        // Flags: only true/false/0/1 are the fast reader's; the rest is the general reader's to accept or refuse.
        ("active", #""active":1"#, #""active":true"#),
        ("active", #""active":1"#, #""active":1.0"#),
        ("active", #""active":1"#, #""active":-0"#),
        ("active", #""active":1"#, #""active":2"#),
        ("active", #""active":1"#, #""active":01"#),
        ("active", #""active":1"#, #""active":1e0"#),
        ("active", #""active":1"#, #""active":"1""#),
        ("active", #""active":1"#, #""active":null"#),
        ("active", #""active":1"#, #""active" : 1 "#),
        // Renew states: codes, names, and what the general reader maps to unknown.
        ("active", #""renew_state":1"#, #""renew_state":-1"#),
        ("active", #""renew_state":1"#, #""renew_state":- 1"#),
        ("active", #""renew_state":1"#, #""renew_state":-"#),
        ("active", #""renew_state":1"#, #""renew_state":2.0"#),
        ("active", #""renew_state":1"#, #""renew_state":true"#),
        ("active", #""renew_state":1"#, #""renew_state":{"a":[1]}"#),
        ("active", #""renew_state":1"#, #""renew_state":"will_renew""#),
        ("active", #""renew_state":1"#, #""renew_state":99999999999999999999"#),
        // Counts and timestamps at and past their limits, in other units and types.
        ("active", #""renews_count":2"#, #""renews_count":2147483647"#),
        ("active", #""renews_count":2"#, #""renews_count":2147483648"#),
        ("active", #""renews_count":2"#, #""renews_count":-1"#),
        ("active", #""renews_count":2"#, #""renews_count":2.0"#),
        ("active", #""renews_count":2"#, #""renews_count":123456789012345678901"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":1749546862000"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":1749546862.5"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":-1"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":0"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":253402300799"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":253402300800"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":1.7e9"#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":"1749546862""#),
        ("active", #""expiration_timestamp":1749546862"#, #""expiration_timestamp":null"#),
        (
            "active", #""expiration_timestamp":1749546862"#,
            #""expiration_timestamp":1749546862,"expiration_timestamp":1"#
        ),
        // Ids: empty, null, other types, escapes, duplicates (the general reader names the second element).
        ("active", #""id":"premium""#, #""id":"""#),
        ("active", #""id":"premium""#, #""id":null"#),
        ("active", #""id":"premium""#, #""id":7"#),
        ("active", #""id":"premium""#, #""id":"pre\u006dium""#),
        ("active", #""id":"premium""#, #""\u0069d":"premium""#),
        ("active", #""permissions":["#, #""permissions":[{"active":0,"id":"premium"},"#),
        ("active", #""permissions":["#, #""permissions":[{"active":0,"id":"pre\u006dium"},"#),
        (
            "several-entitlements", #""permissions":["#,
            #""permissions":[{"active":0,"id":"e\u0301"},{"active":0,"id":"é"},"#
        ),
        // Transaction ids: integers are the general reader's.
        ("active", #""transaction_id":"2000000874512301""#, #""transaction_id":2000000874512301"#),
        ("active", #""transaction_id":"2000000874512301""#, #""transaction_id":-5"#),
        ("active", #""transaction_id":"2000000874512301""#, #""transaction_id":"""#),
        ("active", #""transaction_id":"2000000874512301""#, #""transaction_id":null"#),
        ("active", #""store_transactions":["#, #""store_transactions":null,"x":["#),
        ("active", #""store_transactions":["#, #""store_transactions":{"a":["#),
        // Tolerant strings: other types, escapes, non-ASCII.
        ("active", #""source":"appstore""#, #""source":7"#),
        ("active", #""source":"appstore""#, #""source":null"#),
        ("active", #""source":"appstore""#, #""source":"app\u0073tore""#),
        ("active", #""grant_type":"purchase""#, #""grant_type":["purchase"]"#),
        // The envelope and `data`: failures, other replies, other formats' keys, JSON Lines envelopes.
        ("active", #""success":true"#, #""success":false"#),
        ("active", #""success":true"#, #""success":null"#),
        ("active", #""success":true"#, #""success":1"#),
        ("active", #""success":true"#, #""success":true,"subscriber":{}"#),
        ("active", #""success":true"#, #""success":true,"schemaVersion":1"#),
        ("active", #""success":true"#, #""success":true,"response":{}"#),
        ("active", #""success":true"#, #""success":true,"error":{"message":"x"}"#),
        ("active", #""success":true"#, #""success":true,"object":"list","has_more":true"#),
        ("active", #""data":{"#, #""data":[],"d":{"#),
        ("active", #""data":{"#, #""data":"x","d":{"#),
        ("active", #""permissions":["#, #""permissions":null,"x":["#),
        ("active", #""permissions":["#, #""permissions":{"a":["#),
        ("active", #""permissions":["#, #""x":["#),
        ("launch-result-without-permissions", #""uid":"#, #""uid":null,"x":"#),
        ("launch-result-without-permissions", #""uid":"#, #""uid":"","x":"#),
        ("active", #""uid":"#, #""uid":7,"x":"#),
        ("active", #""apple_extra":{"#, #""apple_extra":null,"x":{"#),
        ("active", #""apple_extra":{"#, #""apple_extra":[],"x":{"#),
        ("active", #""original_application_version":"142""#, #""original_application_version":"""#),
        ("active", #""original_application_version":"142""#, #""original_application_version":142"#),
        ("active", #""timestamp":1748779198"#, #""timestamp":1748779198.25"#),
        // v3 and v4 lists: version detection from the envelope and the first item, partial lists, dates.
        ("v4-rest-list", #""has_more":false"#, #""has_more":true"#),
        ("v4-rest-list", #""has_more":false"#, #""has_more":null"#),
        ("v4-rest-list", #""has_more":false"#, #""has_more":0"#),
        ("v4-rest-list", #""has_more":false,"#, ""),
        ("v4-rest-list", #""object":"list","#, ""),
        ("v4-rest-list", #""object":"list","#, #""object":"lists","#),
        ("v4-rest-list", #""is_active":true"#, #""is_active":null"#),
        ("v4-rest-list", #""is_active":true"#, #""active":true,"is_active":true"#),
        ("v4-rest-list", #""is_active":true"#, #""active":false"#),
        ("v4-rest-list", #""object":"user_entitlement""#, #""object":7"#),
        ("v4-rest-list", #""started_at":"2025-03-15T12:30:00Z""#, #""started_at":"2025-03-15T12:30:00""#),
        ("v4-rest-list", #""started_at":"2025-03-15T12:30:00Z""#, #""started_at":1742041800"#),
        (
            "v4-rest-list", #""started_at":"2025-03-15T12:30:00Z""#,
            #""started_at":"2025-03-15T12:30:00Z","started":"x""#
        ),
        ("v4-rest-list", #""product":{"#, #""product":null,"x":{"#),
        ("v4-rest-list", #""subscription":{"#, #""subscription":7,"x":{"#),
        ("v3-rest-list", #""active":true"#, #""active":null"#),
        ("v3-rest-list", #""active":true"#, #""is_active":true"#),
        ("v3-rest-list", #""active":true"#, #""active":true,"object":"user_entitlement""#),
        ("v3-rest-list", #""object":"list""#, #""object":"list","url":null"#),
        ("v3-rest-list", #","object":"list""#, ""),
        ("v3-rest-list", #""started":1748188800"#, #""started":"2025-05-25T16:00:00Z""#),
        ("v3-rest-list", #""renew_state":"will_renew""#, #""renew_state":1"#),
        ("v3-empty-list", #""data":[]"#, #""data":[7]"#),
        ("v3-empty-list", #""data":[]"#, #""data":[],"has_more":true"#),
        // Stripe's lists share the envelope: the general reader steps aside for their element kinds and for
        // an empty list under Stripe's `/v1/`, so the fast reader must not claim them either.
        ("v4-rest-list", #""object":"user_entitlement""#, #""object":"subscription""#),
        ("v4-rest-list", #""object":"user_entitlement""#, #""object":"checkout.session""#),
        ("v4-rest-list", #""object":"user_entitlement""#, #""object":"invoice""#),
        ("v3-empty-list", #""data":[]"#, #""object":"list","data":[],"url":"/v1/subscriptions""#),
        ("v3-empty-list", #""data":[]"#, #""object":"list","data":[],"url":"/v4/users/u/entitlements""#),
    ])
    func editedDocumentsGetTheSameAnswerOnBothPaths(_ edit: (String, String, String)) throws {
        let scenario = try FixtureCatalog.scenario(provider: .qonversion, name: edit.0)
        let compact = try JSONValue.parse(Data(contentsOf: scenario.documentURL)).compactText
        #expect(compact.contains(edit.1), "the edit must apply")
        guard let range = compact.range(of: edit.1) else { return }
        let edited = compact.replacingCharacters(in: range, with: edit.2)
        for text in [edited, "\u{FEFF}" + edited, edited + " x", " \n" + edited + "\t"] {
            Self.expectSameAnswers(Data(text.utf8), text)
        }
    }
}

/// SplitMix64, so the mutations are the same on every run.
private struct MutationRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
