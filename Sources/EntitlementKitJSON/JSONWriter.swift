/// Writes `JSONValue`s as canonical text: keys sorted by their UTF-8 bytes, no insignificant
/// differences between two writes of equal values.
package enum JSONWriter {
    /// Pretty form: two-space indentation, `"key": value`, a newline at the end.
    static func prettyText(of value: JSONValue) -> String {
        var output = ""
        write(value, into: &output, indent: 0, pretty: true)
        output += "\n"
        return output
    }

    /// One line, no spaces.
    static func compactText(of value: JSONValue) -> String {
        var output = ""
        write(value, into: &output, indent: 0, pretty: false)
        return output
    }

    package static func quoted(_ string: String) -> String {
        var output = ""
        writeString(string, into: &output)
        return output
    }

    static func sortedKeys<Value>(_ members: [String: Value]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func write(_ value: JSONValue, into output: inout String, indent: Int, pretty: Bool) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double(let double):
            if double.rounded() == double, abs(double) < 1e15 {
                output += String(Int64(double))
            } else {
                output += "\(double)"
            }
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                if pretty { newline(into: &output, indent: indent + 1) }
                write(element, into: &output, indent: indent + 1, pretty: pretty)
            }
            if pretty { newline(into: &output, indent: indent) }
            output += "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (offset, key) in sortedKeys(members).enumerated() {
                if offset > 0 { output += "," }
                if pretty { newline(into: &output, indent: indent + 1) }
                writeString(key, into: &output)
                output += pretty ? ": " : ":"
                write(members[key] ?? .null, into: &output, indent: indent + 1, pretty: pretty)
            }
            if pretty { newline(into: &output, indent: indent) }
            output += "}"
        }
    }

    private static func newline(into output: inout String, indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    private static func writeString(_ string: String, into output: inout String) {
        output += "\""
        // Most strings (ids, dates, enum values) need no escaping: append them whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

extension JSONValue {
    /// Canonical pretty text (sorted keys, two-space indentation, trailing newline).
    public var prettyText: String { JSONWriter.prettyText(of: self) }
    /// Canonical one-line text (sorted keys, no spaces), as used in JSON Lines.
    public var compactText: String { JSONWriter.compactText(of: self) }
}
