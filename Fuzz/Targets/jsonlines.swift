// fuzz-modules: EntitlementKitMigration EntitlementKitRevenueCat EntitlementKitQonversion
// fuzz-seeds: Fixtures/cross-provider
import EntitlementKit
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation

/// The JSON Lines reader and record decoding of `migrate`/`parity`. The first input byte picks the block
/// size and the second the line limit, so block boundaries and over-long lines land everywhere.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 2 else { return 0 }
    let blockSize = Int(start[0] % 64) + 1
    let lineLimit = Int(start[1]) * 16 + 1
    let input = Data(bytes: start + 2, count: count - 2)
    var offset = 0
    var reader = JSONLinesReader(maximumLineLength: lineLimit) {
        guard offset < input.count else { return nil }
        let end = min(offset + blockSize, input.count)
        defer { offset = end }
        return input.subdata(in: offset..<end)
    }
    // The expected lines, split the obvious way.
    let rawLines = input.split(separator: 0x0A, omittingEmptySubsequences: false)
    let decoder = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])
    var previous = 0
    do {
        while let line = try reader.next() {
            guard line.number > previous, line.number <= rawLines.count else {
                fatalError("line \(line.number) after \(previous) of \(rawLines.count)")
            }
            previous = line.number
            var expected = Data(rawLines[rawLines.startIndex + line.number - 1])
            if expected.last == 0x0D { expected.removeLast() }
            switch line.content {
            case .text(let text):
                if text != expected { fatalError("line \(line.number) split wrongly") }
                if text.count > lineLimit { fatalError("line \(line.number) over the limit returned") }
                switch decoder.snapshot(of: line, at: fuzzInstant, maximumLineLength: lineLimit) {
                case .success(let snapshot): checkSnapshot(snapshot)
                case .failure(let failure):
                    if String(describing: failure).contains("\n") { fatalError("failure spans lines") }
                }
            case .tooLong(let byteCount):
                if byteCount <= lineLimit { fatalError("line \(line.number) of \(byteCount) bytes called too long") }
            }
        }
    } catch {
        fatalError("the in-memory source cannot fail: \(error)")
    }
    return 0
}
