import EntitlementKit
import Foundation
import TestSupport
import Testing

/// `JSONNode.member` (a scan of the object's keys on the tape, plain keys compared by their bytes) finds
/// exactly the member the object's dictionary of Swift strings finds: the same value, or none.
@Suite(.timeLimit(.minutes(2))) struct MemberLookupTests {
    /// The member found by the scan and by the dictionary, as text.
    private func answers(_ node: JSONNode, _ name: String) -> (scanned: String?, dictionary: String?) {
        guard case .object(let members) = node.value else { return (nil, nil) }
        return (node.member(name)?.value.compactText, members[name]?.compactText)
    }

    @Test func everyKeyAndEveryAbsentNameOfRandomObjectsIsFoundAsTheDictionaryFindsIt() throws {
        var random = SplitMix64(seed: 35)
        // Short names from a small alphabet, so that keys share lengths and bytes.
        let alphabet = Array("ab_xyz")
        func name() -> String { String((0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % 6)] }) }
        for _ in 0..<300 {
            var members: [String: JSONValue] = [:]
            let count = 1 + Int(random.next() % 30)
            while members.count < count {
                // Some values are containers, which the scan steps over whole.
                members[name()] = random.next() % 3 == 0 ? .object(["k": .array([.integer(1)])]) : .integer(1)
            }
            let node = try JSONNode(parsing: Data(JSONValue.object(members).compactText.utf8))
            for key in members.keys {
                let (scanned, dictionary) = answers(node, key)
                #expect(scanned != nil && scanned == dictionary, "key \(key)")
            }
            for _ in 0..<20 {
                let other = name()
                let (scanned, dictionary) = answers(node, other)
                #expect(scanned == dictionary, "name \(other)")
            }
        }
    }

    /// Keys that are the same string in other bytes: escaped, decomposed, or the Kelvin sign, which Swift
    /// compares equal to `K`; and a name that is not plain ASCII equal to a plain key.
    @Test(arguments: [
        (#"{"a":1,"es\u0063aped":"e"}"#, "escaped"),
        (#"{"a":1,"cafe\#u{301}":"d"}"#, "caf\u{E9}"),
        (#"{"a":1,"\#u{212A}":"k"}"#, "K"),
        (#"{"a":1,"K":"k"}"#, "\u{212A}"),
        (#"{"a":1,"K":"k"}"#, "k"),
        (#"{"a":1,"\#u{212A}":"k"}"#, "\u{212A}"),
    ])
    func keysEqualAsStringsButNotAsBytesAreFound(document: String, name: String) throws {
        let node = try JSONNode(parsing: Data(document.utf8))
        let (scanned, dictionary) = answers(node, name)
        #expect(scanned == dictionary)
    }
}
