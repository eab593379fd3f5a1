import EntitlementKit
import Foundation
import TestSupport
import Testing

/// `JSONObject` (an object's keys hashed into a table once) answers every name exactly as `JSONNode.member`
/// (a scan of the keys) does: the same member, `null` included, or none.
@Suite(.timeLimit(.minutes(2))) struct ObjectIndexTests {
    /// Both readers' answer for `name`: the member's value as text, or `nil`.
    private func answers(_ node: JSONNode, _ name: String) throws -> (indexed: String?, scanned: String?) {
        let object = try node.object()
        return (object.member(name)?.value.compactText, node.member(name)?.value.compactText)
    }

    @Test func everyKeyAndEveryAbsentNameOfRandomObjectsIsFoundAsTheScanFindsIt() throws {
        var random = SplitMix64(seed: 35)
        // Short names from a small alphabet, so that keys share lengths, first and last bytes, and collide.
        func name() -> String {
            let length = Int(random.next() % 12)
            return String((0..<length).map { _ in "ab_xyz"[Int(random.next() % 6)] })
        }
        for _ in 0..<400 {
            var members: [String: JSONValue] = [:]
            let count = 1 + Int(random.next() % 40)
            while members.count < count { members[name()] = .integer(Int64(members.count)) }
            let node = try JSONNode(parsing: Data(JSONValue.object(members).compactText.utf8))
            for key in members.keys {
                let (indexed, scanned) = try answers(node, key)
                #expect(indexed != nil && indexed == scanned, "key \(key) of \(members.count)")
            }
            for _ in 0..<20 {
                let other = name()
                let (indexed, scanned) = try answers(node, other)
                #expect(indexed == scanned, "name \(other) of \(members.count)")
            }
        }
    }

    /// Keys that are the same string in other bytes: escaped, decomposed, or the Kelvin sign, which Swift
    /// compares equal to `K`. An object large enough to be indexed finds them by name as the scan does.
    @Test func keysEqualAsStringsButNotAsBytesAreFound() throws {
        let filler = (0..<10).map { #""filler_\#($0)":\#($0)"# }.joined(separator: ",")
        let text = #"{\#(filler),"es\u0063aped":"e","caf\#u{65}\#u{301}":"d","\#u{212A}":"k","null_value":null}"#
        let node = try JSONNode(parsing: Data(text.utf8))
        for name in ["escaped", "caf\u{E9}", "K", "\u{212A}", "null_value", "filler_3", "filler_10", "absent"] {
            let (indexed, scanned) = try answers(node, name)
            #expect(indexed == scanned, "\(name)")
        }
        #expect(try node.object().member("escaped")?.value == .string("e"))
        #expect(try node.object().member("K")?.value == .string("k"))
        #expect(try node.object().member("null_value")?.isNull == true)
        #expect(try node.object().optional("null_value") == nil)
    }

    /// A plain key equal to a name that is not plain ASCII (`K` and the Kelvin sign) is found although the
    /// table only holds the plain key's bytes.
    @Test func aNameThatIsNotPlainASCIIFindsAPlainKeyEqualToIt() throws {
        let filler = (0..<10).map { #""filler_\#($0)":\#($0)"# }.joined(separator: ",")
        let node = try JSONNode(parsing: Data(#"{\#(filler),"K":"plain"}"#.utf8))
        #expect(try node.object().member("\u{212A}")?.value == .string("plain"))
    }

    @Test func aMissingRequiredMemberIsLocated() throws {
        let filler = (0..<10).map { #""filler_\#($0)":\#($0)"# }.joined(separator: ",")
        let node = try JSONNode(parsing: Data(#"{"outer":{\#(filler),"gone":null}}"#.utf8))
        let outer = try #require(node.member("outer"))
        #expect(
            throws: DocumentError(
                kind: .missingField, path: outer.path.appending("gone"), reason: "is required but missing")
        ) {
            try outer.object().required("gone")
        }
        #expect(throws: DocumentError.self) { try node.member("outer")?.member("filler_1")?.object() }
    }
}

extension String {
    fileprivate subscript(offset: Int) -> Character { self[index(startIndex, offsetBy: offset)] }
}
