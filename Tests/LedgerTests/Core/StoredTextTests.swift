import EntitlementKit
import Foundation
import TestSupport
import Testing

/// What the ledger keeps of a document it read: the canonical compact text, written from the parsed
/// document's tape (`JSONNode.compactTextBytes`) where it was written from a value tree, and the texts
/// read back as one listing (`JSONArraysText`) where each was parsed into a tree first.
@Suite("The ledger's stored text", .timeLimit(.minutes(1)))
struct StoredTextTests {
    /// The tape's text is the writer's text, byte for byte, on documents written with keys out of order,
    /// escapes where none are needed, spaces, non-ASCII text and every kind of number.
    @Test func theTapesCompactTextIsTheWritersText() throws {
        var generator = SplitMix64(seed: 32)
        for _ in 0..<400 {
            let value = Self.randomValue(depth: 0, &generator)
            let text = Self.scrambledText(of: value, &generator)
            let node = try JSONNode(parsing: Data(text.utf8))
            #expect(node.compactTextBytes == Array(node.value.compactText.utf8), "\(text)")
        }
        let fixed = [
            #"{"b":1.0,"a":-0.0,"c":1e20,"d":0.1,"e":1.5e300,"f":-9223372036854775808,"g":123456789012345678}"#,
            #"{"z\u0041":"\u00e9\ud83d\ude00","zA ":"\"\\\/\b\f\n\r\t\u0001","é":"e\u0301","ea":"x"}"#,
            #"{"e\u0301":1,"f":[1.0,-0.0,25e-1]}"#,
            #"[[],{},"",[{}],{"":[]}]"#, #"  "plain"  "#, "null", "true", "-12",
        ]
        for text in fixed {
            let node = try JSONNode(parsing: Data(text.utf8))
            #expect(node.compactTextBytes == Array(node.value.compactText.utf8), "\(text)")
        }
    }

    /// A document made from a value keeps its strings raw (a quote, a backslash, a control character
    /// unescaped): they are escaped on the way out as the writer escapes them.
    @Test func aDocumentMadeFromAValueIsWrittenAsTheWriterWritesIt() {
        let value = JSONValue.object([
            "quote\"key": .string("a \"quoted\" \\ back\nslash\u{01}"), "plain": .array([.double(2.5), .integer(-3)]),
            "ünï": .string("cödé"), "nested": .object(["b": .null, "a": .bool(false)]),
        ])
        let node = JSONNode(value)
        #expect(node.compactTextBytes == Array(value.compactText.utf8))
    }

    /// Texts kept elsewhere are read back as one object of arrays, each text parsed alone first: a text
    /// that is not one JSON value — one that would close its array and add members — is refused.
    @Test func textsReadBackAsOneObjectAndAnInjectedTextIsRefused() throws {
        var listing = JSONArraysText(keys: ["products", "subscriptions"])
        try listing.append(Array(#"{"purchaseToken":"a"}"#.utf8), to: 1)
        try listing.append(Array(#"{"purchaseToken":"b"}"#.utf8), to: 1)
        #expect(
            try listing.document().value
                == .object([
                    "products": .array([]),
                    "subscriptions": .array([
                        .object(["purchaseToken": .string("a")]), .object(["purchaseToken": .string("b")]),
                    ]),
                ]))
        for damaged in [#"{"a":1}],"products":[{"b":2}"#, #"{"a":1} {"b":2}"#, "", #"{"a":"#] {
            var other = JSONArraysText(keys: ["products", "subscriptions"])
            #expect(throws: DocumentError.self) { try other.append(Array(damaged.utf8), to: 0) }
        }
    }

    // MARK: Generated documents

    static let alphabet: [String] = [
        "a", "b", "Z", "0", " ", "é", "e\u{301}", "😀", "\"", "\\", "\n", "\u{01}", "/", "ß",
    ]

    static func randomString(_ generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...5, using: &generator)).map { _ in
            alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
        }
        .joined()
    }

    static func randomValue(depth: Int, _ generator: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<(depth < 3 ? 8 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &generator))
        case 3:
            return .double(
                [0.5, -2.25, 1e21, 3.0e-7, 1e15, 123.0, -0.0][Int.random(in: 0..<7, using: &generator)])
        case 4, 5: return .string(randomString(&generator))
        case 6:
            return .array(
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomValue(depth: depth + 1, &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                // Canonically equivalent keys are one key to the parser: keep the generated ones distinct.
                let key = randomString(&generator)
                guard !members.keys.contains(where: { $0 == key }) else { continue }
                members[key] = randomValue(depth: depth + 1, &generator)
            }
            return .object(members)
        }
    }

    /// `value` as text a vendor might send: members in a random order, some characters escaped that need
    /// not be, spaces between tokens.
    static func scrambledText(of value: JSONValue, _ generator: inout SplitMix64) -> String {
        let space = Bool.random(using: &generator) ? " " : ""
        switch value {
        case .object(let members):
            let parts = members.keys.shuffled(using: &generator).map {
                quoted($0, &generator) + space + ":" + space + scrambledText(of: members[$0] ?? .null, &generator)
            }
            return "{" + space + parts.joined(separator: "," + space) + "}"
        case .array(let elements):
            return "[" + elements.map { scrambledText(of: $0, &generator) }.joined(separator: "," + space) + "]"
        case .string(let string): return quoted(string, &generator)
        case .double(let double):
            return Bool.random(using: &generator) ? "\(double)" : String(format: "%.17g", double)
        default: return value.compactText
        }
    }

    static func quoted(_ string: String, _ generator: inout SplitMix64) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            let escapeAnyway = Int.random(in: 0..<4, using: &generator) == 0
            if scalar == "\"" || scalar == "\\" || scalar.value < 0x20 || escapeAnyway {
                for unit in String(scalar).utf16 { text += String(format: "\\u%04x", unit) }
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
