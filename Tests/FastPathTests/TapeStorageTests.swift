import EntitlementKit
import Foundation
import Testing

/// What a document costs to hold once read (issue 31, item 6): its bytes and one 64-bit tape word per value,
/// nothing per value on the heap. Measured by the document's own accounting of what it allocated, not by
/// time.
@Suite(.timeLimit(.minutes(5))) struct TapeStorageTests {
    @Test func aFiveMillionElementArrayTakesAFewTimesItsSize() throws {
        let count = 5_000_000
        var text = [UInt8]()
        text.reserveCapacity(2 * count + 1)
        text.append(UInt8(ascii: "["))
        for index in 0..<count {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "0") + UInt8(index % 10))
        }
        text.append(UInt8(ascii: "]"))
        let data = Data(text)
        let root = try JSONNode(parsing: data)
        #expect(root.count == count)
        let stored = root.documentByteCount
        // The text (10 MB) plus one word per element and one for the array: 5 × the text, never the tree's
        // tens of bytes per element.
        #expect(stored <= 5 * data.count + 4096, "\(stored) bytes held for \(data.count) bytes of JSON")
        #expect(try root.firstElement?.integer() == 0)
    }

    @Test func objectsHoldOneWordPerKeyAndValue() throws {
        let members = (0..<100_000).map { #""key\#($0)":"value\#($0)""# }.joined(separator: ",")
        let data = Data(("{" + members + "}").utf8)
        let root = try JSONNode(parsing: data)
        #expect(root.count == 100_000)
        #expect(root.documentByteCount <= data.count + 8 * (2 * 100_000 + 1) * 2)
        #expect(try root.required("key99999").string() == "value99999")
    }
}
