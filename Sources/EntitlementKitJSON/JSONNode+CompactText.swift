extension JSONNode {
    /// The UTF-8 bytes of `value.compactText` (canonical: keys sorted by their UTF-8 bytes, no spaces),
    /// written from the document's tape without making the value tree: what the ledger keeps of a
    /// document it read costs one walk of that document, not a tree of dictionaries and then its text.
    package var compactTextBytes: [UInt8] {
        var output: [UInt8] = []
        document.writeCompact(at: index, into: &output)
        return output
    }
}

extension JSONDocument {
    /// Writes the value at `index` as ``JSONWriter`` writes it compact: every scalar through the same
    /// conversion ``value(at:)`` makes (so the two texts are the same bytes), members in key order.
    fileprivate func writeCompact(at index: Int, into output: inout [UInt8]) {
        switch kind(at: index) {
        case .null: output.append(contentsOf: "null".utf8)
        case .false: output.append(contentsOf: "false".utf8)
        case .true: output.append(contentsOf: "true".utf8)
        case .integer: output.append(contentsOf: String(integer(at: index)).utf8)
        case .double: output.append(contentsOf: JSONWriter.compactText(of: .double(double(at: index))).utf8)
        case .asciiString, .utf8String, .escapedString: writeString(at: index, into: &output)
        case .array:
            output.append(UInt8(ascii: "["))
            var child = index + 1
            let end = next(after: index)
            while child < end {
                if child > index + 1 { output.append(UInt8(ascii: ",")) }
                writeCompact(at: child, into: &output)
                child = next(after: child)
            }
            output.append(UInt8(ascii: "]"))
        case .object:
            // The parser refuses duplicate keys (and a document made from a value has none), so sorting
            // the keys' bytes gives the writer's order.
            var members: [(key: [UInt8], at: Int)] = []
            var key = index + 1
            let end = next(after: index)
            while key < end {
                members.append((keyBytes(at: key), key))
                key = next(after: key + 1)
            }
            members.sort { $0.key.lexicographicallyPrecedes($1.key) }
            output.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                writeString(at: member.at, into: &output)
                output.append(UInt8(ascii: ":"))
                writeCompact(at: member.at + 1, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A key's bytes as the writer sorts them: the decoded string's UTF-8.
    private func keyBytes(at index: Int) -> [UInt8] {
        kind(at: index) == .asciiString ? Array(text(at: index)) : Array(string(at: index).utf8)
    }

    /// A string as the writer quotes it. A plain ASCII string that needs no escape is its own text; a
    /// document made from a value keeps strings raw (a quote or a control character unescaped), so the
    /// text is checked before it is copied.
    private func writeString(at index: Int, into output: inout [UInt8]) {
        if kind(at: index) == .asciiString {
            let text = text(at: index)
            if !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: text)
                output.append(UInt8(ascii: "\""))
                return
            }
        }
        output.append(contentsOf: JSONWriter.quoted(string(at: index)).utf8)
    }
}
