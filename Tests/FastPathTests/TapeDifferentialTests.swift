import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitFixtures
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import JSONOracle
import TestSupport
import Testing

/// The tape (one validating pass, `JSONNode` a view over it) and the tree reader it replaced (the oracle:
/// `OracleJSONParser`'s `JSONValue`, read through a node made from it) give the same snapshot or the same
/// located error on every fixture, wrapped and bare, and on deterministic mutations of them: deleted,
/// inserted and replaced bytes, so every kind of malformed input (truncation, stray quotes, bad UTF-8,
/// duplicate keys, wrong types) reaches both.
@Suite(.timeLimit(.minutes(5))) struct TapeDifferentialTests {
    private static let adapters: [any EntitlementAdapter] = [RevenueCatAdapter(), QonversionAdapter(), AdaptyAdapter()]
    private static let now = Date(millisecondsSince1970: 1_757_930_400_000)  // 2025-09-15T10:00:00Z
    private static let decoder = SnapshotDecoder(adapters: adapters)

    /// Every fixture document as one compact record, bare and in envelopes.
    private static func records() throws -> [Data] {
        var documents: [Data] = []
        for provider in FixtureCatalog.providers {
            for scenario in try FixtureCatalog.scenarios(provider: provider) {
                documents.append(try Data(contentsOf: scenario.documentURL))
            }
        }
        var records: [Data] = []
        for document in documents {
            records.append(document)
            guard let text = String(data: document, encoding: .utf8) else { continue }
            records.append(Data(#"{"appUserId":"env-user","response":\#(text)}"#.utf8))
            records.append(Data(#"{"response":\#(text),"provider":"revenuecat","extra":[1,{"a":null}]}"#.utf8))
            records.append(Data(#"{"provider":"qonversion","appUserId":null,"response":\#(text)}"#.utf8))
        }
        return records
    }

    fileprivate enum Answer: Equatable {
        case snapshot(EntitlementSnapshot, String)
        case failure(DocumentError)
    }

    /// The answer through the tape.
    fileprivate func answer(_ record: Data, format: ProviderID? = nil) -> Answer {
        answer { () throws(DocumentError) in try Self.decoder.snapshot(fromRecord: record, format: format, at: Self.now)
        }
    }

    /// The answer through the oracle's tree.
    fileprivate func oracleAnswer(_ record: Data, format: ProviderID? = nil) -> Answer {
        answer { () throws(DocumentError) in
            try Self.decoder.snapshot(
                fromRecord: JSONNode(OracleJSONParser.parse(record)), format: format, at: Self.now)
        }
    }

    private func answer(_ decode: () throws(DocumentError) -> EntitlementSnapshot) -> Answer {
        do {
            let snapshot = try decode()
            return .snapshot(snapshot, snapshot.canonicalJSON(compact: true))
        } catch {
            return .failure(error)
        }
    }

    @Test func everyFixtureRecordGetsTheSameAnswerThroughBoth() throws {
        var snapshots = 0
        for record in try Self.records() {
            for format in [nil, ProviderID.revenueCat, ProviderID.qonversion, ProviderID.adapty] {
                let expected = oracleAnswer(record, format: format)
                #expect(answer(record, format: format) == expected, "\(String(decoding: record, as: UTF8.self))")
                if case .snapshot = expected { snapshots += 1 }
            }
        }
        #expect(snapshots >= 100)
    }

    @Test func everyDocumentParsesToTheOraclesValueOrError() throws {
        var documents = try Self.records()
        documents += try FixtureCatalog.malformedDocuments().map(\.data)
        for data in documents {
            let tape = Result(catching: { () throws(DocumentError) -> JSONValue in try JSONValue.parse(data) })
            let oracle = Result(catching: { () throws(DocumentError) -> JSONValue in try OracleJSONParser.parse(data) })
            #expect(tape == oracle, "\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test func mutatedRecordsGetTheSameAnswerThroughBoth() throws {
        var random = SplitMix64(seed: 0x5EED)
        let replacements: [UInt8] = Array(#""\{}[],:0-1.e tnfu"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF, 0xED, 0xA0]
        let seeds = try Self.records().filter { $0.count < 6_000 }
        var compared = 0
        var accepted = 0
        for seed in seeds {
            for _ in 0..<12 {
                var bytes = [UInt8](seed)
                for _ in 0...random.below(2) {
                    let index = random.below(bytes.count)
                    switch random.below(4) {
                    case 0: bytes.remove(at: index)
                    case 1: bytes.insert(replacements[random.below(replacements.count)], at: index)
                    case 2: bytes[index] = replacements[random.below(replacements.count)]
                    default:
                        // A copy of a stretch of the document: duplicate keys, repeated members.
                        let end = min(bytes.count, index + 1 + random.below(60))
                        bytes.insert(contentsOf: bytes[index..<end], at: random.below(bytes.count))
                    }
                    if bytes.isEmpty { bytes = [0x7B] }
                }
                let record = Data(bytes)
                let expected = oracleAnswer(record)
                #expect(answer(record) == expected, "\(String(decoding: record, as: UTF8.self))")
                compared += 1
                if case .snapshot = expected { accepted += 1 }
            }
        }
        #expect(compared > 1_000)
        // Mutations in places the mapping does not read still map, and must agree.
        #expect(accepted > 30, "\(accepted) of \(compared) mutated records mapped")
    }
}

extension TapeDifferentialTests {
    /// Hand-made edits of a RevenueCat fixture at each place where the tape must refuse or read exactly as
    /// the tree parser did.
    @Test(arguments: [
        // Duplicate keys: known and unknown, at every level, and inside skipped values.
        (#""request_date_ms":"#, #""request_date_ms":1,"request_date_ms":"#),
        (#""first_seen":"#, #""first_seen":"2025-01-01T00:00:00Z","first_seen":"#),
        (#""display_name":"#, #""display_name":"x","display_name":"#),
        (#""price":{"#, #""price":{"amount":1,"#),
        (#""other_purchases":{}"#, #""other_purchases":{"a":{"b":1,"b":2}}"#),
        (#""entitlements":{"#, #""entitlements":{"premium":{"expires_date":null,"product_identifier":"x"},"#),
        // Keys compared as strings: escapes, canonically equivalent non-ASCII spellings.
        (#""subscriber":"#, #""subscr\u0069ber":"#),
        (#""other_purchases":{}"#, #""other_purchases":{"\u00e9":1,"e\u0301":2}"#),
        (#""other_purchases":{}"#, #""other_purchases":{"é":1,"é":2}"#),
        // Values: wrong types, nulls, escapes, surrogates, numbers, nesting.
        (#""is_sandbox":false"#, #""is_sandbox":null"#),
        (#""is_sandbox":false"#, #""is_sandbox":0"#),
        (#""store":"play_store""#, #""store":7"#),
        (#""store":"play_store""#, #""store":"play\u005fstore""#),
        (#""period_type":"normal""#, #""period_type":{"x":[1,2,{"y":null}]}"#),
        (#""other_purchases":{}"#, #""other_purchases":"\ud800""#),
        (#""other_purchases":{}"#, #""other_purchases":"\udc00\ud800""#),
        (#""other_purchases":{}"#, #""other_purchases":"\ud83d\ude00""#),
        (#""other_purchases":{}"#, #""other_purchases":1e400"#),
        (#""other_purchases":{}"#, #""other_purchases":-0.5E-3"#),
        (#""other_purchases":{}"#, #""other_purchases":01"#),
        (
            #""other_purchases":{}"#,
            #""other_purchases":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"#
        ),
        (#""expires_date":"2025-10-"#, #""expires_date":"2025-10-"#),
        (#""purchase_date":"2025-09-"#, #""purchase_date":"2025-02-30T00:00:00Z","x":"2025-09-"#),
        (#""management_url":"#, #""management_url":"not a url","x":"#),
        (#""management_url":"#, #""management_url":"https:\/\/example.com\/a","x":"#),
        (#""original_app_user_id":"#, #""original_app_user_id":"\u00e9\n\t","x":"#),
        (#""subscriber":{"#, #""schemaVersion":1,"subscriber":{"#),
    ])
    func editedDocumentsGetTheSameAnswerThroughBoth(_ edit: (String, String)) throws {
        let scenario = try FixtureCatalog.scenario(provider: .revenueCat, name: "google-base-plan")
        let compact = try JSONValue.parse(Data(contentsOf: scenario.documentURL)).compactText
        #expect(compact.contains(edit.0), "the edit must apply")
        guard let range = compact.range(of: edit.0) else { return }
        let edited = compact.replacingCharacters(in: range, with: edit.1)
        for text in [edited, "\u{FEFF}" + edited, edited + " x", #"{"appUserId":"a","response":"# + edited + "}"] {
            let record = Data(text.utf8)
            #expect(answer(record) == oracleAnswer(record), "\(text)")
        }
    }
}

extension SplitMix64 {
    /// A number in `0..<bound` (0 for an empty range), so the mutations are the same on every run.
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}

extension TapeDifferentialTests {
    /// Documents whose every scanner (strings plain and escaped, literals, numbers of every length, keys,
    /// whitespace) reaches the end of the text somewhere when cut.
    private static let scannedDocuments = [
        #"{"a":"text","bb":[true,false,null,-12.5e+3,0,123456789012345678901,1.25E-2],"c":"\u00e9\ud83d\ude00 é\n"}"#,
        "[ 1 , 12345678 , 123456789 , -0.000000001 , \"key\" , { \"k\" : { } } , [ ] ]\r\n\t",
        "123456789012", "-7", "\"plain text of some length\"", "true", "false", "null",
    ]

    /// The tape reads zero bytes past the text instead of checking bounds: a document cut anywhere (right
    /// before those bytes) is still refused where the oracle refuses it, with the same error, and a NUL
    /// byte inside the text is read as the byte it is, never as the end.
    @Test func everyCutAndEveryInsertedNULGetTheOraclesAnswer() {
        for document in Self.scannedDocuments {
            let bytes = Array(document.utf8)
            for index in 0...bytes.count {
                for variant in [Array(bytes[..<index]), Array(bytes[..<index]) + [0x00] + bytes[index...]] {
                    let data = Data(variant)
                    let tape = Result(catching: { () throws(DocumentError) -> JSONValue in try JSONValue.parse(data) })
                    let oracle = Result(catching: { () throws(DocumentError) -> JSONValue in
                        try OracleJSONParser.parse(data)
                    })
                    #expect(tape == oracle, "\(variant)")
                }
            }
        }
    }

    /// Duplicate keys are found by fingerprint and walk among an object's first keys and by a set beyond:
    /// every position of a repeated key, and objects of distinct keys, of every size across the switch.
    @Test func duplicateKeysAreFoundAtEveryPositionAndSize() {
        for size in 1...30 {
            let keys = (0..<size).map { #""k\#($0 % 3 == 0 ? "ey" : "")\#($0)""# }
            for repeated in [nil] + Array(0..<size) {
                let members = (keys + (repeated.map { [keys[$0]] } ?? [])).map { $0 + ":1" }
                let data = Data(("{" + members.joined(separator: ",") + "}").utf8)
                let tape = Result(catching: { () throws(DocumentError) -> JSONValue in try JSONValue.parse(data) })
                let oracle = Result(catching: { () throws(DocumentError) -> JSONValue in
                    try OracleJSONParser.parse(data)
                })
                #expect(tape == oracle, "\(String(decoding: data, as: UTF8.self))")
                if case .success = tape { #expect(repeated == nil) }
            }
        }
    }
}
