import Foundation

/// Reads CSV records (RFC 4180) one at a time from an ``ImportByteSource``: fields separated by commas,
/// records by `\n` or `\r\n`; a field in double quotes may hold commas, line breaks and doubled quotes
/// (`""` for `"`). A UTF-8 byte order mark before the first record is skipped; blank lines are not records.
///
/// Strict where the format is: a quote inside an unquoted field, text after a closing quote and a quoted
/// field still open at the end of the input are malformed records. A malformed record is answered with its
/// line and what is wrong, and reading goes on at the next line. Only the bytes of the fields asked for
/// are kept, so a wide export costs what its used columns cost.
struct CSVRecordReader {
    /// One record: its first line and its fields (those not kept are empty).
    struct Record {
        var line: Int
        var fields: [String]
    }

    /// A record that is not well-formed CSV.
    struct Malformed: Error {
        var line: Int
        var reason: String
    }

    private var source: ImportByteSource
    private var chunk: [UInt8] = []
    private var position = 0
    private var isAtEnd = false
    /// The line of the next byte, from 1.
    private var line = 1
    private var isAtStart = true

    init(_ source: ImportByteSource) {
        self.source = source
    }

    /// The next record, a malformed one, or `nil` at the end.
    ///
    /// - Parameter keeps: whether field `index` is kept (its text returned); other fields are read and
    ///   dropped, and come back empty.
    mutating func next(keeping keeps: (Int) -> Bool) throws(ImportReadError) -> Result<Record, Malformed>? {
        if isAtStart {
            isAtStart = false
            if try peek() == 0xEF { try skipByteOrderMark() }
        }
        while true {
            guard let first = try peek() else { return nil }
            // A blank line is not a record (a file's final line break, or one left between records).
            if first == 0x0A {
                advance()
                line += 1
                continue
            }
            if first == 0x0D, try peek(offset: 1) == 0x0A {
                advance()
                continue
            }
            break
        }
        let start = line
        var fields: [String] = []
        var field: [UInt8] = []
        while true {
            let index = fields.count
            let keep = keeps(index)
            field.removeAll(keepingCapacity: true)
            let end: FieldEnd
            if try peek() == 0x22 {
                advance()
                end = try quotedField(into: &field, keep: keep)
            } else {
                end = try unquotedField(into: &field, keep: keep)
            }
            switch end {
            case .malformed(let reason):
                try skipRestOfLine()
                return .failure(Malformed(line: start, reason: "field \(index + 1): " + reason))
            case .comma, .recordEnd:
                guard let text = String(bytes: field, encoding: .utf8) else {
                    try skipRestOfLine()
                    return .failure(Malformed(line: start, reason: "field \(index + 1): not UTF-8 text"))
                }
                fields.append(text)
                if case .recordEnd = end { return .success(Record(line: start, fields: fields)) }
            }
        }
    }

    private enum FieldEnd {
        case comma
        case recordEnd
        case malformed(String)
    }

    private mutating func unquotedField(into field: inout [UInt8], keep: Bool) throws(ImportReadError) -> FieldEnd {
        while let byte = try peek() {
            if let end = try separator(byte) { return end }
            if byte == 0x22 { return .malformed("a quote inside an unquoted field (quotes go around a whole field)") }
            if keep { field.append(byte) }
            advance()
        }
        return .recordEnd
    }

    private mutating func quotedField(into field: inout [UInt8], keep: Bool) throws(ImportReadError) -> FieldEnd {
        while let byte = try peek() {
            advance()
            guard byte == 0x22 else {
                if byte == 0x0A { line += 1 }
                if keep { field.append(byte) }
                continue
            }
            guard let next = try peek() else { return .recordEnd }
            if next == 0x22 {
                if keep { field.append(0x22) }
                advance()
                continue
            }
            return try separator(next) ?? .malformed("text after a closing quote")
        }
        return .malformed("a quoted field is not closed before the end of the file")
    }

    /// The field's end at `byte` (the next one), consumed: a comma, or a line break (`\n` or `\r\n`); `nil` when
    /// `byte` is neither.
    private mutating func separator(_ byte: UInt8) throws(ImportReadError) -> FieldEnd? {
        if byte == 0x2C {
            advance()
            return .comma
        }
        var length = 0
        if byte == 0x0A {
            length = 1
        } else if byte == 0x0D, try peek(offset: 1) == 0x0A {
            length = 2
        }
        guard length > 0 else { return nil }
        position += length
        line += 1
        return .recordEnd
    }

    private mutating func skipRestOfLine() throws(ImportReadError) {
        while let byte = try peek() {
            advance()
            if byte == 0x0A {
                line += 1
                return
            }
        }
    }

    private mutating func skipByteOrderMark() throws(ImportReadError) {
        if try peek(offset: 1) == 0xBB, try peek(offset: 2) == 0xBF {
            advance()
            advance()
            advance()
        }
    }

    // MARK: Bytes

    private mutating func peek(offset: Int = 0) throws(ImportReadError) -> UInt8? {
        while position + offset >= chunk.count {
            guard !isAtEnd else { return nil }
            guard let next = try source.next() else {
                isAtEnd = true
                return nil
            }
            // Keep what is not read yet (at most a few bytes of lookahead) before the new chunk.
            chunk = Array(chunk[position...]) + next
            position = 0
        }
        return chunk[position + offset]
    }

    @inline(__always)
    private mutating func advance() {
        position += 1
    }
}
