import Foundation

/// An object whose members are arrays of JSON texts kept elsewhere — `{"a":[t1,t2],"b":[]}` — written
/// as text and parsed once: what the ledger reads its kept records back as (a vendor's listing), where
/// parsing each text into a tree and making a document of the trees cost a walk and a copy per record.
///
/// Each text is parsed alone before it is appended, so a damaged one is refused as itself and can never
/// close an array early and smuggle members into the object.
package struct JSONArraysText {
    private let keys: [String]
    private var elements: [Data]
    private var lengths: [Int]

    /// An object of `keys` (distinct), each an empty array.
    package init(keys: [String]) {
        self.keys = keys
        elements = Array(repeating: Data(), count: keys.count)
        lengths = Array(repeating: 0, count: keys.count)
    }

    /// Appends `text`, which must be one JSON value, to the array of `keys[member]`.
    package mutating func append(_ text: some Collection<UInt8>, to member: Int) throws(DocumentError) {
        let bytes = Data(text)
        _ = try JSONDocument(parsing: bytes)
        if lengths[member] > 0 { elements[member].append(UInt8(ascii: ",")) }
        elements[member].append(bytes)
        lengths[member] += 1
    }

    /// The object as a document.
    package func document() throws(DocumentError) -> JSONNode {
        var text = Data([UInt8(ascii: "{")])
        for (member, key) in keys.enumerated() {
            if member > 0 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: JSONWriter.quoted(key).utf8)
            text.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: "[")])
            text += elements[member]
            text.append(UInt8(ascii: "]"))
        }
        text.append(UInt8(ascii: "}"))
        return try JSONNode(parsing: text)
    }
}
