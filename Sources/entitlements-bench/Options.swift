/// The bench's command line: `entitlements-bench [--docs N] [--large] [--repetitions N] [--no-python]`.
struct Options {
    /// Documents per vendor corpus.
    var documents = 10_000
    /// Runs per figure; the median is reported.
    var repetitions = 3
    /// Whether to time the Python scripts too.
    var python = true
    /// Where to write the corpora and keep them (for profiling a single run); a temporary folder else.
    var corpusDirectory: String?
    /// Another build of this bench (an earlier commit's) whose `migrate` runs alternate with this one's.
    var baseline: String?

    static let usage = """
        usage: entitlements-bench [--docs N] [--large] [--repetitions N] [--no-python] [--keep-corpora DIR]
                                  [--baseline BENCH]
          --docs N         documents per vendor corpus (default 10000, about 24 MB each)
          --large          100000 documents per corpus (about 240 MB each)
          --repetitions N  runs per figure, median reported (default 3)
          --no-python      skip the Python json/orjson yardstick
          --baseline BENCH another build of entitlements-bench (an earlier commit's): its migrate runs
                           alternate with this build's on the same corpora, and the CPU ratio is reported
          --keep-corpora DIR  write the corpora into DIR and keep them, e.g. to profile one run:
                           valgrind --tool=callgrind entitlements-bench --child-migrate DIR/revenuecat.jsonl 1
                           valgrind --tool=callgrind entitlements-bench --child-warm DIR/revenuecat.jsonl 100000
        other runs:
          --ecdsa          ECDSA verification beside OpenSSL
          --ledger [--ledger-log-mb N]  the ledger: inputs per CPU-second, a long thread against many short
                           ones, and `entitlements ledger replay`'s peak memory on an N MB log (default 100;
                           build the entitlements product too: swift build -c release --product entitlements)
          --ledger --ledger-threads  only the long thread against the many short ones
          --ledger --ledger-memory   only the in-memory rates (App Store, Play, Stripe), e.g. under perf record
          --ledger --ledger-stores   only the table of the stores' rates (in memory, directory, /dev/shm)
          --ledger --ledger-directory  only Play and Stripe in memory and into the batched directory store
          --import         ledger import-plan on a generated RevenueCat export
        """

    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--docs": documents = try Self.count(remaining.popFirst(), for: argument)
            case "--large": documents = 100_000
            case "--repetitions": repetitions = try Self.count(remaining.popFirst(), for: argument)
            case "--no-python": python = false
            case "--baseline":
                guard let executable = remaining.popFirst() else { throw BenchFailure("--baseline needs a bench") }
                baseline = executable
            case "--keep-corpora":
                guard let directory = remaining.popFirst() else { throw BenchFailure("--keep-corpora needs a folder") }
                corpusDirectory = directory
            default: throw BenchFailure("unknown argument \(argument)\n\(Self.usage)")
            }
        }
    }

    private static func count(_ text: String?, for option: String) throws -> Int {
        guard let text, let value = Int(text), value > 0 else {
            throw BenchFailure("\(option) needs a positive number\n\(usage)")
        }
        return value
    }
}
