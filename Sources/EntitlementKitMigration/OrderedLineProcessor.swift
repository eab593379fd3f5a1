import Dispatch
import Foundation

/// Runs a transform over JSON Lines on several threads and hands the results back in input order, in
/// bounded memory.
///
/// Lines are read in windows of at most ``windowLineCount`` lines and ``windowByteCount`` bytes. The
/// lines of a window are transformed by ``jobs`` workers in parallel, then delivered one by one in input
/// order before the next window is read, so memory depends on the window, never on the input's size.
public struct OrderedLineProcessor: Sendable {
    /// How many workers transform a window's lines at once.
    public let jobs: Int
    /// The most lines read ahead.
    public let windowLineCount: Int
    /// The most bytes of line text read ahead (a window always takes at least one line).
    public let windowByteCount: Int

    /// Creates a processor with `jobs` workers (at least 1).
    ///
    /// - Parameters:
    ///   - windowLineCount: the lines read ahead; by default 256 per worker.
    ///   - windowByteCount: the bytes read ahead; 32 MiB by default.
    public init(jobs: Int, windowLineCount: Int? = nil, windowByteCount: Int = 32 << 20) {
        self.jobs = max(1, jobs)
        self.windowLineCount = max(1, windowLineCount ?? 256 * self.jobs)
        self.windowByteCount = max(1, windowByteCount)
    }

    /// Reads `reader` to its end, applies `transform` to every line on the workers, and calls `deliver`
    /// with each line and its result in input order. An error thrown by `deliver` stops the run and is
    /// rethrown; so is a read error.
    public func run<Output: Sendable>(
        _ reader: inout JSONLinesReader,
        transform: @escaping @Sendable (JSONLine) -> Output,
        deliver: (JSONLine, Output) throws -> Void
    ) throws {
        var window: [JSONLine] = []
        window.reserveCapacity(windowLineCount)
        while true {
            window.removeAll(keepingCapacity: true)
            var byteCount = 0
            while window.count < windowLineCount, byteCount < windowByteCount, let line = try reader.next() {
                if case .text(let text) = line.content { byteCount += text.count }
                window.append(line)
            }
            guard !window.isEmpty else { return }
            let outputs = map(window, transform)
            for (line, output) in zip(window, outputs) {
                try deliver(line, output)
            }
        }
    }

    private func map<Output: Sendable>(_ lines: [JSONLine], _ transform: @escaping @Sendable (JSONLine) -> Output)
        -> [Output]
    {
        let workers = min(jobs, lines.count)
        guard workers > 1 else { return lines.map(transform) }
        let slots = Slots<Output>(count: lines.count)
        // Worker w takes lines w, w + workers, w + 2·workers…: similar documents cost similar time, so a
        // fixed stride balances the load without a shared counter.
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < lines.count {
                slots.store(transform(lines[index]), at: index)
                index += workers
            }
        }
        return slots.values()
    }
}

/// Fixed storage the workers write their results into, each slot by exactly one worker.
///
/// `@unchecked Sendable` because the type system cannot see the discipline that makes it safe: every
/// index is written once, by one worker, and read only after `concurrentPerform` has returned, which
/// orders all the workers' writes before the read.
private final class Slots<Value>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil, count: count)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    func store(_ value: Value, at index: Int) {
        storage[index] = value
    }

    func values() -> [Value] {
        (0..<count).map { index in
            guard let value = storage[index] else { preconditionFailure("window slot \(index) was never filled") }
            return value
        }
    }
}
