import EntitlementKit
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation

/// One measured run in a process of its own, so that each peak-memory figure belongs to one run only.
/// The parent starts the bench again with `--child-migrate` or `--child-parity`; the child prints one
/// line: `seconds records failed output-bytes peak-KiB cpu-seconds`.
enum ChildRun {
    /// 2025-09-15T10:00:00Z, the instant every run evaluates at.
    static let instant = Date(timeIntervalSince1970: TimeInterval(CorpusText.instant))

    static let decoder = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])

    /// The first record of the corpus at `path`, mapped at ``instant``.
    static func firstSnapshot(path: String) throws -> EntitlementSnapshot {
        guard let handle = FileHandle(forReadingAtPath: path), let block = try handle.read(upToCount: 1 << 16),
            let end = block.firstIndex(of: 0x0A)
        else { throw BenchFailure("cannot read the first record of \(path)") }
        return try decoder.snapshot(fromRecord: block[..<end], at: instant)
    }

    /// `migrate --jobs N INPUT > /dev/null`, driven through the library as the CLI drives it.
    static func migrate(path: String, jobs: Int) throws -> String {
        guard let input = FileHandle(forReadingAtPath: path) else { throw BenchFailure("cannot open \(path)") }
        let sink = NullSink()
        let start = ContinuousClock.now
        let cpuStart = Machine.cpuSeconds
        var reader = JSONLinesReader(fileHandle: input)
        let summary = try BulkMigration(decoder: decoder, at: instant).run(
            &reader, processor: OrderedLineProcessor(jobs: jobs), write: { sink.write($0) }, failed: { _ in })
        sink.flush()
        let seconds = (ContinuousClock.now - start).seconds
        let cpu = Machine.cpuSeconds - cpuStart
        return "\(seconds) \(summary.records) \(summary.failed) \(sink.byteCount) \(Machine.peakResidentKiB) \(cpu)"
    }

    /// `parity --jobs N A B`, report discarded.
    static func parity(a pathA: String, b pathB: String, jobs: Int) throws -> String {
        guard let inputA = FileHandle(forReadingAtPath: pathA), let inputB = FileHandle(forReadingAtPath: pathB) else {
            throw BenchFailure("cannot open \(pathA) or \(pathB)")
        }
        let start = ContinuousClock.now
        let cpuStart = Machine.cpuSeconds
        var readerA = JSONLinesReader(fileHandle: inputA)
        var readerB = JSONLinesReader(fileHandle: inputB)
        var records = 0
        let outcome = try ParityCheck(decoder: decoder, at: instant).run(
            a: &readerA, b: &readerB, processor: OrderedLineProcessor(jobs: jobs), failed: { _, _ in },
            progress: { _, _ in records += 1 })
        let seconds = (ContinuousClock.now - start).seconds
        let failed = outcome.failuresInA + outcome.failuresInB
        let cpu = Machine.cpuSeconds - cpuStart
        return "\(seconds) \(records) \(failed) 0 \(Machine.peakResidentKiB) \(cpu)"
    }
}

/// Buffered writes to `/dev/null`: the output is produced and copied as the CLI's is, then dropped.
final class NullSink {
    private let handle = FileHandle(forWritingAtPath: "/dev/null")
    private var buffer: [UInt8] = []
    private(set) var byteCount = 0

    func write(_ data: Data) {
        buffer.append(contentsOf: data)
        byteCount += data.count
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        handle?.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
