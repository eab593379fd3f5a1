import Foundation

/// One line of a JSON Lines input: a record of a `migrate` export or a line of a ledger log, as
/// ``JSONLinesReader`` hands it over.
public struct JSONLine: Sendable, Hashable {
    /// What the line holds.
    public enum Content: Sendable, Hashable {
        /// The line's bytes, without the line break (`\n` or `\r\n`).
        case text(Data)
        /// The line was longer than the reader's limit; its bytes were skipped, never held in memory.
        case tooLong(byteCount: Int)
    }

    /// The 1-based line number in the input (blank lines count).
    public var number: Int
    /// What the line holds.
    public var content: Content

    /// Creates a line.
    public init(number: Int, content: Content) {
        self.number = number
        self.content = content
    }
}

/// Splits a byte stream into JSON Lines, in bounded memory whatever the input's size.
///
/// Reads the source in blocks; only the current block and one unfinished line are held. Blank lines
/// (empty or whitespace only) are skipped but still numbered, so reported line numbers match an editor's.
/// A line longer than ``maximumLineLength`` is reported as ``JSONLine/Content/tooLong(byteCount:)`` and
/// skipped without being buffered.
public struct JSONLinesReader {
    /// The default longest line kept in memory: 16 MiB, far above any real customer document.
    public static let defaultMaximumLineLength = 16 << 20

    /// The longest line, in bytes, that is returned as text.
    public let maximumLineLength: Int
    private let readBlock: () throws -> Data?
    // Bytes read but not yet returned live in `buffer[lineStart...]`; consumed lines are dropped only
    // when the next block arrives, so splitting costs one pass over the input.
    private var buffer: [UInt8] = []
    private var lineStart = 0
    private var searchStart = 0
    private var lineNumber = 0
    private var skippingLongLine = false
    private var skippedBytes = 0
    private var finished = false

    /// Reads from `readBlock`, which returns the next block of bytes, or `nil` or an empty block at the end.
    public init(maximumLineLength: Int = defaultMaximumLineLength, readBlock: @escaping () throws -> Data?) {
        self.maximumLineLength = max(1, maximumLineLength)
        self.readBlock = readBlock
    }

    /// Reads `fileHandle` (a file, a pipe, standard input) to its end in blocks of `blockSize` bytes.
    public init(fileHandle: FileHandle, blockSize: Int = 1 << 18, maximumLineLength: Int = defaultMaximumLineLength) {
        self.init(maximumLineLength: maximumLineLength) { try fileHandle.read(upToCount: blockSize) }
    }

    /// Reads lines out of `data` already in memory.
    public init(data: Data, maximumLineLength: Int = defaultMaximumLineLength) {
        var remaining: Data? = data
        self.init(maximumLineLength: maximumLineLength) {
            defer { remaining = nil }
            return remaining
        }
    }

    /// The next non-blank line, or `nil` at the end of the input.
    public mutating func next() throws -> JSONLine? {
        while true {
            if let line = try nextRawLine() {
                if case .text(let bytes) = line.content, Self.isBlank(bytes) { continue }
                return line
            }
            return nil
        }
    }

    private mutating func nextRawLine() throws -> JSONLine? {
        while true {
            if let newline = Self.firstNewline(in: buffer, from: max(lineStart, searchStart)) {
                let line = finishLine(upTo: newline)
                lineStart = newline + 1
                searchStart = lineStart
                return line
            }
            searchStart = buffer.count
            // One byte of slack for the `\r` of a `\r\n` line break.
            if buffer.count - lineStart - 1 > maximumLineLength {
                // Forget the long line's bytes as they come; only its length is reported.
                skippingLongLine = true
                skippedBytes += buffer.count - lineStart
                buffer.removeAll(keepingCapacity: true)
                lineStart = 0
                searchStart = 0
            }
            if finished {
                guard lineStart < buffer.count || skippingLongLine else { return nil }
                let line = finishLine(upTo: buffer.count)
                buffer.removeAll()
                lineStart = 0
                searchStart = 0
                return line
            }
            guard let block = try readBlock(), !block.isEmpty else {
                finished = true
                continue
            }
            if lineStart > 0 {
                buffer.removeSubrange(0..<lineStart)
                searchStart -= lineStart
                lineStart = 0
            }
            buffer.append(contentsOf: block)
        }
    }

    private mutating func finishLine(upTo end: Int) -> JSONLine {
        lineNumber += 1
        if skippingLongLine {
            let byteCount = skippedBytes + (end - lineStart)
            skippingLongLine = false
            skippedBytes = 0
            return JSONLine(number: lineNumber, content: .tooLong(byteCount: byteCount))
        }
        var textEnd = end
        if textEnd > lineStart, buffer[textEnd - 1] == 0x0D { textEnd -= 1 }
        if textEnd - lineStart > maximumLineLength {
            return JSONLine(number: lineNumber, content: .tooLong(byteCount: textEnd - lineStart))
        }
        // Copied straight from the buffer's storage: `Data(buffer[range])` went through the generic
        // sequence initializer.
        let text = buffer.withUnsafeBufferPointer { bytes in
            Data(UnsafeBufferPointer(rebasing: bytes[lineStart..<textEnd]))
        }
        return JSONLine(number: lineNumber, content: .text(text))
    }

    /// The index of the first `\n` at or after `start` (`memchr`: the byte-by-byte search was a tenth
    /// of `migrate`'s time once conversion got fast).
    private static func firstNewline(in buffer: [UInt8], from start: Int) -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, bytes.count - start) else {
                return nil
            }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private static func isBlank(_ bytes: Data) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
