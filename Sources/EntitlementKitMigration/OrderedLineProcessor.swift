import Dispatch
import EntitlementKit
import Foundation

/// Runs a transform over JSON Lines on several threads and hands the results back in input order, in
/// bounded memory.
///
/// Lines are read in windows of at most ``windowLineCount`` lines and ``windowByteCount`` bytes. Reading,
/// transforming and delivering overlap: while ``jobs`` workers transform one window, the caller's thread
/// delivers the window before it and reads the one after, so a run is as fast as its slowest stage
/// rather than the sum of all three. At most two windows are read ahead of the one being delivered, so
/// memory depends on the window, never on the input's size. Within a window, each worker takes the next
/// chunk no worker has taken yet, so the workers finish a window together, and a worker the system
/// pauses (a busy machine) holds up only the chunk it is on while the others do the rest.
public struct OrderedLineProcessor: Sendable {
    /// How many workers transform lines at once.
    public let jobs: Int
    /// The most lines in one window.
    public let windowLineCount: Int
    /// The most bytes of line text in one window (a window always takes at least one line).
    public let windowByteCount: Int

    /// Windows being transformed while the oldest is delivered: one is transformed while the caller
    /// delivers the previous one and reads the next.
    static let windowsInFlight = 2

    /// Lines a worker takes at a time: large enough that handing work out (a lock per chunk) costs
    /// nothing measurable, small enough that the workers of a window finish together.
    static let chunkLineCount = 16

    /// Creates a processor with `jobs` workers (at least 1).
    ///
    /// - Parameters:
    ///   - windowLineCount: the lines of one window; by default 256 per worker.
    ///   - windowByteCount: the bytes of one window; 8 MiB by default.
    public init(jobs: Int, windowLineCount: Int? = nil, windowByteCount: Int = 8 << 20) {
        self.jobs = max(1, jobs)
        self.windowLineCount = max(1, windowLineCount ?? 256 * self.jobs)
        self.windowByteCount = max(1, windowByteCount)
    }

    /// Reads `reader` to its end, applies `transform` to every line on the workers, and calls `deliver`
    /// on the caller's thread with each line and its result in input order. An error thrown by
    /// `deliver` stops the run and is rethrown; so is a read error. Either way no transform is still
    /// running when this returns.
    public func run<Output: Sendable>(
        _ reader: inout JSONLinesReader,
        transform: @escaping @Sendable (JSONLine) -> Output,
        deliver: (JSONLine, Output) throws -> Void
    ) throws {
        let workers = (0..<jobs).map { DispatchQueue(label: "OrderedLineProcessor.worker.\($0)") }
        var inFlight: [Window<Output>] = []
        // Whatever ends the run, let the workers finish what they hold before the windows go away.
        defer { for window in inFlight { window.group.wait() } }
        var exhausted = false
        while true {
            if !exhausted {
                let lines = try readWindow(&reader)
                if lines.isEmpty {
                    exhausted = true
                } else {
                    let window = Window<Output>(lines: lines)
                    window.submit(to: workers, chunk: Self.chunkLineCount, transform: transform)
                    inFlight.append(window)
                }
            }
            guard !inFlight.isEmpty else { return }
            if exhausted || inFlight.count >= Self.windowsInFlight {
                let oldest = inFlight.removeFirst()
                oldest.group.wait()
                try oldest.deliver(deliver)
            }
        }
    }

    private func readWindow(_ reader: inout JSONLinesReader) throws -> [JSONLine] {
        var lines: [JSONLine] = []
        lines.reserveCapacity(min(windowLineCount, 4096))
        var byteCount = 0
        while lines.count < windowLineCount, byteCount < windowByteCount, let line = try reader.next() {
            if case .text(let text) = line.content { byteCount += text.count }
            lines.append(line)
        }
        return lines
    }
}

/// One window's lines and the slots the workers write their results into.
///
/// `@unchecked Sendable` because the type system cannot see the discipline that makes it safe: every
/// slot is written once, by the one worker that took its chunk (under `lock`), and read only after
/// `group.wait()`, which orders all the workers' writes before the read; `lines` is never written after
/// creation.
private final class Window<Output: Sendable>: @unchecked Sendable {
    let lines: [JSONLine]
    let group = DispatchGroup()
    private let slots: UnsafeMutablePointer<Output?>
    // Guards `nextLine`: the first line no worker has taken yet.
    private let lock = NSLock()
    private var nextLine = 0

    init(lines: [JSONLine]) {
        self.lines = lines
        slots = .allocate(capacity: lines.count)
        slots.initialize(repeating: nil, count: lines.count)
    }

    deinit {
        slots.deinitialize(count: lines.count)
        slots.deallocate()
    }

    /// Gives the window to every worker's serial queue: each worker takes the next untaken chunk until
    /// none is left, then goes on to the next window. (Chunks dealt out in fixed turns left a worker
    /// that was paused or slower holding its share of every window while the others waited.)
    func submit(to workers: [DispatchQueue], chunk: Int, transform: @escaping @Sendable (JSONLine) -> Output) {
        for worker in workers {
            worker.async(group: group) {
                while let range = self.takeChunk(chunk) {
                    for index in range { self.slots[index] = transform(self.lines[index]) }
                }
            }
        }
    }

    /// The next `chunk` lines no worker has taken, or `nil` when every line is taken.
    private func takeChunk(_ chunk: Int) -> Range<Int>? {
        lock.withLock {
            guard nextLine < lines.count else { return nil }
            let range = nextLine..<min(nextLine + chunk, lines.count)
            nextLine = range.upperBound
            return range
        }
    }

    func deliver(_ deliver: (JSONLine, Output) throws -> Void) throws {
        for index in lines.indices {
            guard let output = slots[index] else { preconditionFailure("window slot \(index) was never filled") }
            try deliver(lines[index], output)
        }
    }
}
