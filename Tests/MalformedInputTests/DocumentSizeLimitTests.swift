import EntitlementKit
import EntitlementKitMigration
import Foundation
import Testing

/// A whole document is read up to `BoundedDocumentReader.defaultMaximumDocumentLength` and no further:
/// a larger file is refused from its size, an endless input after one byte past the limit — a located
/// error, exit 65 from the tool, never unbounded memory or a hang.
@Suite(.timeLimit(.minutes(5))) struct DocumentSizeLimitTests {
    private static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("size-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A file of `size` bytes (sparse: zeros the reader never has to see).
    private static func file(of size: Int, in directory: URL, named name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        #expect(truncate(url.path, off_t(size)) == 0)
        return url
    }

    @Test func theLimitIsSixteenMebibytesLikeOneJSONLinesRecord() {
        #expect(BoundedDocumentReader.defaultMaximumDocumentLength == 16 * 1024 * 1024)
        #expect(BoundedDocumentReader.defaultMaximumDocumentLength == JSONLinesReader.defaultMaximumLineLength)
    }

    @Test func aFileAtTheLimitIsReadAndOneByteLongerIsRefusedFromItsSize() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = BoundedDocumentReader(maximumDocumentLength: 1024)
        let atLimit = try Self.file(of: 1024, in: directory, named: "at-limit.json")
        #expect(try reader.read(FileHandle(forReadingFrom: atLimit)).count == 1024)

        let over = try FileHandle(forReadingFrom: Self.file(of: 1025, in: directory, named: "over.json"))
        let result = Result { () throws(BoundedDocumentReader.Failure) -> Data in try reader.read(over) }
        guard case .failure(.tooLarge(let error)) = result else {
            Issue.record("a file over the limit was not refused: \(result)")
            return
        }
        #expect(error.kind == .syntax)
        #expect(error.description == "$: is 1025 bytes long, over the limit of 1024 bytes for one document; not read")
        // Refused from its size: nothing was read.
        #expect(try over.offset() == 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func anEndlessStreamIsRefusedAfterOneBytePastTheLimit() throws {
        // A socket pair stands in for a pipe: the writer learns the reader is gone without a SIGPIPE.
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
            let kind = Int32(SOCK_STREAM.rawValue)
        #else
            let kind = SOCK_STREAM
        #endif
        #expect(socketpair(AF_UNIX, kind, 0, &ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        #if canImport(Darwin)
            var noSignal: Int32 = 1
            setsockopt(writeEnd, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let writer = EndlessWriter(descriptor: writeEnd)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            writer.run()
            finished.signal()
        }
        let limit = 64 * 1024
        // The handle owns the read end and closes it once (a second close could hit another test's socket).
        let reading = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true)
        let result = Result { () throws(BoundedDocumentReader.Failure) -> Data in
            try BoundedDocumentReader(maximumDocumentLength: limit).read(reading)
        }
        try reading.close()
        finished.wait()
        close(writeEnd)
        guard case .failure(.tooLarge(let error)) = result else {
            Issue.record("an endless input was not refused: \(result)")
            return
        }
        #expect(error.description == "$: is longer than the limit of 65536 bytes for one document; read no further")
        // The writer stopped when the reader went away: what it got out is the limit plus socket buffers.
        #expect(writer.sent > limit)
        #expect(writer.sent < limit + 16 * 1024 * 1024)
    }

    @Test func theToolRefusesAnEndlessDeviceWithExit65() async throws {
        let outcome = try await CommandLineTool.runOnOwnThread(["convert", "/dev/zero"], in: MalformedCorpus.directory)
        #expect(outcome.status == 65)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderr
                == "error: /dev/zero: $: is longer than the limit of 16777216 bytes for one document; read no further\n"
        )
    }

    @Test func theToolRefusesAFileOverTheLimitUnreadWithExit65() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.file(of: 16 * 1024 * 1024 + 1, in: directory, named: "huge.json")
        for command in ["convert", "check"] {
            let outcome = try await CommandLineTool.runOnOwnThread(
                [command, "--from", "revenuecat", "huge.json"], in: directory)
            #expect(outcome.status == 65)
            #expect(outcome.stdout.isEmpty)
            #expect(
                outcome.stderr
                    == "error: huge.json: $: is 16777217 bytes long, over the limit of 16777216 bytes for one document; not read\n"
            )
        }
    }
}

/// Writes blocks to a socket until the other end closes (or 256 MiB, a bound no passing test reaches).
final class EndlessWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var total = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The bytes written so far.
    var sent: Int { lock.withLock { total } }

    func run() {
        let block = [UInt8](repeating: UInt8(ascii: " "), count: 4096)
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        while sent < 256 << 20 {
            let count = block.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            guard count > 0 else { return }
            lock.withLock { total += count }
        }
    }
}
