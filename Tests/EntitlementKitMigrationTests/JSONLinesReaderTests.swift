import EntitlementKit
import EntitlementKitMigration
import Foundation
import Testing

@Suite("JSONLinesReader: bounded-memory line splitting", .timeLimit(.minutes(5)))
struct JSONLinesReaderTests {
    /// Feeds `text` in blocks of `blockSize` bytes, to exercise lines that straddle blocks.
    func lines(_ text: String, blockSize: Int = 3, maximumLineLength: Int = 1 << 20) throws -> [JSONLine] {
        var bytes = Array(text.utf8)[...]
        var reader = JSONLinesReader(maximumLineLength: maximumLineLength) {
            let block = Data(bytes.prefix(blockSize))
            bytes = bytes.dropFirst(blockSize)
            return block
        }
        var result: [JSONLine] = []
        while let line = try reader.next() { result.append(line) }
        return result
    }

    func text(_ line: JSONLine) -> String? {
        if case .text(let data) = line.content { return String(decoding: data, as: UTF8.self) }
        return nil
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func linesAreNumberedAndBlankLinesSkipped(blockSize: Int) throws {
        let result = try lines("{\"a\":1}\n\n  \n{\"b\":2}\r\n{\"c\":3}", blockSize: blockSize)
        #expect(result.map(\.number) == [1, 4, 5])
        #expect(result.map(text) == [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
    }

    @Test func aTrailingNewlineAddsNoLine() throws {
        #expect(try lines("1\n2\n").map(\.number) == [1, 2])
        #expect(try lines("").isEmpty)
        #expect(try lines("\n\n").isEmpty)
    }

    @Test(arguments: [1, 5, 16, 1000])
    func aLineOverTheLimitIsReportedWithItsLengthAndTheNextLinesSurvive(blockSize: Int) throws {
        let long = String(repeating: "x", count: 50)
        let result = try lines("ok\n\(long)\nfine\n\(long)", blockSize: blockSize, maximumLineLength: 20)
        #expect(result.map(\.number) == [1, 2, 3, 4])
        #expect(result.map(text) == ["ok", nil, "fine", nil])
        #expect(result[1].content == .tooLong(byteCount: 50))
        #expect(result[3].content == .tooLong(byteCount: 50))
    }

    @Test func aLineExactlyAtTheLimitIsKept() throws {
        let result = try lines(String(repeating: "y", count: 20) + "\r\n", maximumLineLength: 20)
        #expect(result.map(text) == [String(repeating: "y", count: 20)])
    }
}
