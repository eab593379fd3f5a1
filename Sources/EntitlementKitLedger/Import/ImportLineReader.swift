import Foundation

/// Reads JSON Lines one line at a time from an ``ImportByteSource``, so a plan of any size costs one line's
/// memory. A line longer than ``maximumLineLength`` is answered as too long (its bytes are skipped, not kept).
struct ImportLineReader {
    /// 16 MiB, as the replay's log lines.
    static let maximumLineLength = 16 << 20

    /// One line: its number (from 1) and its bytes without the line break (`\r\n` too), or `nil` when it
    /// was too long.
    struct Line {
        var number: Int
        var bytes: [UInt8]?
    }

    private var source: ImportByteSource
    private var chunk: [UInt8] = []
    private var position = 0
    private var number = 0
    private var isAtEnd = false

    init(_ source: ImportByteSource) {
        self.source = source
    }

    /// The next line, or `nil` at the end.
    mutating func next() throws(ImportReadError) -> Line? {
        var line: [UInt8] = []
        var tooLong = false
        while true {
            if position == chunk.count {
                guard !isAtEnd, let next = try source.next() else {
                    isAtEnd = true
                    guard !line.isEmpty || tooLong else { return nil }
                    number += 1
                    return Line(number: number, bytes: tooLong ? nil : line)
                }
                chunk = next
                position = 0
            }
            let rest = chunk[position...]
            let newline = rest.firstIndex(of: 0x0A)
            let end = newline ?? chunk.endIndex
            if !tooLong {
                line.append(contentsOf: chunk[position..<end])
                if line.count > Self.maximumLineLength {
                    tooLong = true
                    line = []
                }
            }
            position = newline.map { $0 + 1 } ?? chunk.endIndex
            if newline != nil {
                number += 1
                if line.last == 0x0D { line.removeLast() }
                return Line(number: number, bytes: tooLong ? nil : line)
            }
        }
    }
}
