// fuzz-modules: EntitlementKitMigration EntitlementKitRevenueCat EntitlementKitQonversion JSONOracle
// fuzz-seeds: Fixtures/cross-provider
// fuzz-flags: -max_len=4096
import EntitlementKit
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import JSONOracle

/// The JSON Lines reader and record decoding of `migrate`/`parity`. The first input byte picks the block
/// size and the format named (none, or one of the three), the second the line limit, so block boundaries
/// and over-long lines land everywhere. Each record is decoded through the tape and through the tree
/// parser it replaced (the oracle), and both must give the same snapshot or the same located error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 2 else { return 0 }
    let input = Data(bytes: start + 2, count: count - 2)
    // 1…64 bytes, but never more than 64 blocks: tiny blocks on a long input would spend the run on block
    // handling (they found nothing that 64 boundaries per input do not).
    let blockSize = max(Int(start[0] % 64) + 1, (input.count + 63) / 64)
    let format = JSONLinesFixture.formats[Int(start[0] / 64)]
    let lineLimit = Int(start[1]) * 16 + 1
    var offset = 0
    var reader = JSONLinesReader(maximumLineLength: lineLimit) {
        guard offset < input.count else { return nil }
        let end = min(offset + blockSize, input.count)
        defer { offset = end }
        return input.subdata(in: offset..<end)
    }
    // The expected lines, split the obvious way as the reader's lines come.
    var expectedLines = ExpectedLines(input)
    var previous = 0
    do {
        while let line = try reader.next() {
            guard line.number > previous, var expected = expectedLines.line(line.number) else {
                fatalError("line \(line.number) after \(previous) of \(expectedLines.count) or fewer")
            }
            previous = line.number
            if expected.last == 0x0D { expected.removeLast() }
            switch line.content {
            case .text(let text):
                if text != expected { fatalError("line \(line.number) split wrongly") }
                if text.count > lineLimit { fatalError("line \(line.number) over the limit returned") }
                checkRecord(line, text, format: format, lineLimit: lineLimit)
            case .tooLong(let byteCount):
                if byteCount <= lineLimit { fatalError("line \(line.number) of \(byteCount) bytes called too long") }
            }
        }
    } catch {
        fatalError("the in-memory source cannot fail: \(error)")
    }
    return 0
}

/// The tape's and the oracle's decoding of one record agree, and their answer passes the usual checks.
private func checkRecord(_ line: JSONLine, _ text: Data, format: ProviderID?, lineLimit: Int) {
    let decoder = JSONLinesFixture.decoder
    let viaTape = decoder.snapshot(of: line, format: format, at: fuzzInstant, maximumLineLength: lineLimit)
    let viaOracle = Result(catching: { () throws(DocumentError) -> EntitlementSnapshot in
        try decoder.snapshot(fromRecord: JSONNode(OracleJSONParser.parse(text)), format: format, at: fuzzInstant)
    })
    switch (viaTape, viaOracle) {
    case (.success(let tape), .success(let oracle)):
        if tape != oracle || tape.canonicalJSONData() != oracle.canonicalJSONData() {
            fatalError("line \(line.number): the tape's snapshot differs from the oracle's")
        }
        checkSnapshot(tape)
    case (.failure(let failure), .failure(let error)):
        if failure != LineFailure(line: line.number, error: error) {
            fatalError("line \(line.number): \(failure.error) vs the oracle's \(error)")
        }
        checkRefusal(failure.error)
    default:
        fatalError("line \(line.number): the tape answers \(viaTape), the oracle \(viaOracle)")
    }
}

/// The input's `\n`-separated pieces, found one after another (`memchr`, not a generic split: that was a
/// sixth of the target's time).
struct ExpectedLines {
    let input: Data
    private var start = 0
    private(set) var count = 0

    init(_ input: Data) {
        self.input = input
    }

    /// Line `number` (1-based, numbers only grow), without its `\n`; `nil` past the end.
    mutating func line(_ number: Int) -> Data? {
        while start <= input.count {
            let end = input.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress, start < raw.count,
                    let found = memchr(base + start, 0x0A, raw.count - start)
                else { return raw.count }
                return base.distance(to: UnsafeRawPointer(found))
            }
            count += 1
            defer { start = end + 1 }
            if count == number { return input.subdata(in: start..<end) }
        }
        return nil
    }
}

enum JSONLinesFixture {
    static let formats: [ProviderID?] = [nil, .revenueCat, .qonversion, .unified]
    /// The decoder `migrate` uses.
    static let decoder = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])
}
