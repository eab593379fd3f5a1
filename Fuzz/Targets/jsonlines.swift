// fuzz-modules: EntitlementKitMigration EntitlementKitRevenueCat EntitlementKitQonversion
// fuzz-seeds: Fixtures/cross-provider
// fuzz-flags: -max_len=4096
import EntitlementKit
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation

/// The JSON Lines reader and record decoding of `migrate`/`parity`. The first input byte picks the block
/// size and the format named (none, or one of the three), the second the line limit, so block boundaries
/// and over-long lines land everywhere. Each record is decoded with the byte-level fast path (envelope,
/// format detection, the adapters' fast readers) and with it off, and both must give the same snapshot or
/// the same located error.
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

/// The fast and the general decoding of one record agree, and their answer passes the usual checks.
/// `snapshot(of:…)` returns the fast path's snapshot when it has one and the general path's answer
/// otherwise, so the general answer is computed once and compared with the fast path's whenever it answers.
private func checkRecord(_ line: JSONLine, _ text: Data, format: ProviderID?, lineLimit: Int) {
    let general = JSONLinesFixture.general.snapshot(
        of: line, format: format, at: fuzzInstant, maximumLineLength: lineLimit)
    if let fast = JSONLinesFixture.fast.fastSnapshot(fromRecord: text, format: format, at: fuzzInstant) {
        guard case .success(let generalSnapshot) = general else {
            fatalError("line \(line.number): the fast path accepts what the general path refuses: \(general)")
        }
        if fast != generalSnapshot || fast.canonicalJSONData() != generalSnapshot.canonicalJSONData() {
            fatalError("line \(line.number): the fast path's snapshot differs from the general path's")
        }
    }
    switch general {
    case .success(let snapshot): checkSnapshot(snapshot)
    case .failure(let failure): checkRefusal(failure.error)
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
    static let fast = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])
    /// The same decoder with the byte-level fast path off (a `package` switch).
    static let general: SnapshotDecoder = {
        var decoder = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])
        decoder.usesFastPath = false
        return decoder
    }()
}
