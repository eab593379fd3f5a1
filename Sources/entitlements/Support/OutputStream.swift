import Foundation

/// Buffered writes to a file descriptor (standard output or an `--output` file) that never die by
/// `SIGPIPE`.
///
/// The tool ignores `SIGPIPE` (see `main.swift`), so a reader that goes away (`… | head`) shows up here
/// as `EPIPE`: the stream is then marked ``isClosedByReader`` and drops further output, and a long run
/// stops early instead of converting for nobody.
final class OutputStream {
    enum WriteError: Error {
        /// The reading end of the pipe was closed.
        case closedByReader
        /// Another write error, with `errno`'s text.
        case failed(String)
    }

    private let descriptor: Int32
    private let closesDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    private(set) var isClosedByReader = false

    init(descriptor: Int32, closesDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        buffer.reserveCapacity(capacity)
    }

    /// Creates or truncates `path` for writing.
    static func creating(_ path: String) throws(CommandFailure) -> OutputStream {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure(
                status: .cannotCreate, message: "\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        return OutputStream(descriptor: descriptor, closesDescriptor: true)
    }

    deinit {
        try? flush()
        if closesDescriptor { close(descriptor) }
    }

    func write(_ text: String) throws(WriteError) {
        try write(Array(text.utf8))
    }

    func write(_ data: Data) throws(WriteError) {
        // Straight from the record's storage: an intermediate array would be one more allocation and copy per
        // record of a `migrate` run.
        if isClosedByReader { throw .closedByReader }
        data.withUnsafeBytes { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    func write(_ bytes: [UInt8]) throws(WriteError) {
        if isClosedByReader { throw .closedByReader }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    func flush() throws(WriteError) {
        if isClosedByReader { throw .closedByReader }
        var offset = 0
        defer { buffer.removeAll(keepingCapacity: true) }
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Foundation.write(descriptor, base + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE {
                    isClosedByReader = true
                    throw .closedByReader
                }
                throw .failed(String(cString: strerror(errno)))
            }
            if written == 0 { throw .failed("no bytes could be written") }
            offset += written
        }
    }
}

/// Standard error: messages are written at once, unbuffered, and a progress line shown on a terminal is
/// cleared before them.
enum StandardError {
    /// Whether standard error is a terminal (progress is only shown then).
    static let isTerminal = isatty(STDERR_FILENO) == 1

    // Only the main thread writes to standard error (workers never print), so this flag needs no lock.
    nonisolated(unsafe) private static var progressShown = false

    /// Writes `line` and a line break.
    static func print(_ line: String) {
        clearProgress()
        writeRaw(line + "\n")
    }

    /// Replaces the progress line (terminals only).
    static func progress(_ text: String) {
        guard isTerminal else { return }
        writeRaw("\r\u{1B}[K" + text)
        progressShown = true
    }

    /// Removes the progress line, if shown.
    static func clearProgress() {
        guard progressShown else { return }
        writeRaw("\r\u{1B}[K")
        progressShown = false
    }

    private static func writeRaw(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Foundation.write(STDERR_FILENO, base + offset, raw.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
