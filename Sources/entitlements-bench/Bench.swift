import EntitlementKit
import Foundation

/// The whole benchmark: writes the corpora, runs every measurement and prints one Markdown report.
struct Bench {
    let options: Options
    let directory: URL
    let executable: String

    /// A migrate, parity or script corpus on disk.
    struct Corpus {
        let name: String
        let path: String
        let bytes: Int
        let documents: Int
    }

    func run() async throws {
        print("# entitlements-bench")
        print("machine: \(Machine.description)")
        print("corpora: \(options.documents) documents per vendor, \(options.repetitions) runs per figure, medians\n")
        let revenueCat = try write("revenuecat", envelopePercent: 50, record: RevenueCatCorpus.record)
        let qonversion = try write("qonversion", envelopePercent: 50, record: QonversionCorpus.record)
        for corpus in [revenueCat, qonversion] {
            print(
                "- \(corpus.name): \(corpus.documents) documents, \(megabytes(corpus.bytes)) MB, "
                    + "\(corpus.bytes / corpus.documents) B per document")
        }
        print("load average before: \(Machine.loadAverage)")
        print("\n| what | MB/s | documents/s | MB per CPU-second | peak RSS MB | runs (s) |")
        print("|---|---|---|---|---|---|")
        var oneJob: [String: Double] = [:]
        var oneJobCPU: [String: Double] = [:]
        for corpus in [revenueCat, qonversion] {
            for jobs in [1, 2] {
                let runs = try child(["--child-migrate", corpus.path, String(jobs)], corpus: corpus)
                let (rate, cpuRate) = report("migrate \(corpus.name) --jobs \(jobs)", runs, corpus: corpus)
                if jobs == 1 {
                    oneJob[corpus.name] = rate
                    oneJobCPU[corpus.name] = cpuRate
                } else if let single = oneJob[corpus.name] {
                    print("| ↳ --jobs 2 / --jobs 1 | \(format(rate / single, 2))× | | | | |")
                }
            }
        }
        if let baseline = options.baseline {
            for corpus in [revenueCat, qonversion] { try compare(with: baseline, corpus: corpus) }
        }
        if options.python {
            try python(revenueCat, swiftRate: oneJob[revenueCat.name], swiftCPURate: oneJobCPU[revenueCat.name])
        }
        let parityA = try write("parity-a.revenuecat", envelopePercent: 100, record: RevenueCatCorpus.record)
        let parityB = try write("parity-b.qonversion", envelopePercent: 100, record: QonversionCorpus.record)
        let both = Corpus(
            name: "parity", path: "", bytes: parityA.bytes + parityB.bytes,
            documents: parityA.documents + parityB.documents)
        for jobs in [1, 2] {
            let runs = try child(["--child-parity", parityA.path, parityB.path, String(jobs)], corpus: both)
            report("parity revenuecat × qonversion --jobs \(jobs)", runs, corpus: both)
        }
        print("")
        try EncoderCheck.report(corpusPath: revenueCat.path, name: revenueCat.name)
        try EncoderCheck.report(corpusPath: qonversion.path, name: qonversion.name)
        let cached = try ColdLoad(directory: directory, corpusPath: revenueCat.path, repetitions: 2_000).report()
        try await WarmCheck.report(snapshot: cached, iterations: 100_000)
        print("- load average after: \(Machine.loadAverage)")
    }

    /// Writes a corpus of `options.documents` records; `envelopePercent` of them in an envelope.
    private func write(
        _ name: String, envelopePercent: Int, record: (Int, inout SeededGenerator) -> String
    ) throws -> Corpus {
        let url = directory.appendingPathComponent("\(name).jsonl")
        var random = SeededGenerator(seed: 0x454E_5449_544C)
        var text = ""
        text.reserveCapacity(options.documents * 2600)
        for index in 0..<options.documents {
            var line = record(index, &random)
            // The generators wrap half of the records; the parity exports need every record wrapped.
            if envelopePercent == 100, !line.hasPrefix("{\"appUserId\"") {
                var ids = SeededGenerator(seed: UInt64(index))
                let vendor = name.hasSuffix("revenuecat") ? "revenuecat" : "qonversion"
                line =
                    "{\"appUserId\":\"customer_\(index)_\(ids.hex(6))\",\"provider\":\"\(vendor)\",\"response\":"
                    + line + "}"
            } else if envelopePercent == 100 {
                line = line.replacingFirstUserId(with: "customer_\(index)")
            }
            text += line
            text += "\n"
        }
        let data = Data(text.utf8)
        try data.write(to: url)
        return Corpus(name: name, path: url.path, bytes: data.count, documents: options.documents)
    }

    /// `migrate --jobs 1` of `corpus` by this build and by `baseline`, runs alternating so that both see the
    /// same load; the row gives the ratio of the median CPU seconds (below 1: this build is faster).
    private func compare(with baseline: String, corpus: Corpus) throws {
        var this: [[Double]] = []
        var other: [[Double]] = []
        for _ in 0..<max(options.repetitions, 5) {
            other += try child(["--child-migrate", corpus.path, "1"], corpus: corpus, executable: baseline, runs: 1)
            this += try child(["--child-migrate", corpus.path, "1"], corpus: corpus, runs: 1)
        }
        let (_, baselineCPURate) = report("migrate \(corpus.name) --jobs 1, baseline build", other, corpus: corpus)
        let (_, cpuRate) = report("migrate \(corpus.name) --jobs 1, this build (alternating)", this, corpus: corpus)
        print("| ↳ CPU seconds, this build / baseline | | | \(format(baselineCPURate / cpuRate, 2))× | | |")
    }

    /// One child run per repetition; each line is `seconds records failed output-bytes peak-KiB cpu-seconds`.
    private func child(_ arguments: [String], corpus: Corpus, executable: String? = nil, runs: Int? = nil) throws
        -> [[Double]]
    {
        try (0..<(runs ?? options.repetitions)).map { _ in
            let output = try Subprocess.run(executable ?? self.executable, arguments)
            let fields = output.split(separator: " ").compactMap {
                Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard fields.count == 6 else { throw BenchFailure("unexpected child output: \(output)") }
            if fields[2] > 0 { print("warning: \(Int(fields[2])) records of \(corpus.name) failed") }
            return fields
        }
    }

    @discardableResult
    private func report(_ what: String, _ runs: [[Double]], corpus: Corpus) -> (Double, Double) {
        let seconds = Statistics.median(runs.map { $0[0] })
        let peak = runs.map { $0[4] }.max() ?? 0
        let rate = Double(corpus.bytes) / seconds / 1e6
        let list = runs.map { format($0[0], 3) }.joined(separator: ", ")
        let cpuRate = Double(corpus.bytes) / Statistics.median(runs.map { $0[5] }) / 1e6
        print(
            "| \(what) | \(format(rate, 1)) | \(Int(Double(corpus.documents) / seconds)) | \(format(cpuRate, 1)) | "
                + "\(format(peak / 1024, 1)) | \(list) |")
        return (rate, cpuRate)
    }

    private func python(_ corpus: Corpus, swiftRate: Double?, swiftCPURate: Double?) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("python/migrate_revenuecat.py").path
        guard FileManager.default.fileExists(atPath: script) else {
            print("| python scripts | not found at \(script) | | | | |")
            return
        }
        for mode in ["json", "orjson"] {
            // The script prints its wall-clock and CPU seconds.
            let measured = (0..<options.repetitions).compactMap { _ -> [Double]? in
                let output = try? Subprocess.run("/usr/bin/env", ["python3", script, mode, corpus.path])
                let fields = output?.split(separator: " ").compactMap {
                    Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                return fields?.count == 2 ? fields : nil
            }
            let runs = measured.map { $0[0] }
            guard runs.count == options.repetitions else {
                print("| python3 \(mode) script (revenuecat) | did not run | | | | |")
                continue
            }
            let rate = Double(corpus.bytes) / Statistics.median(runs) / 1e6
            let cpuRate = Double(corpus.bytes) / Statistics.median(measured.map { $0[1] }) / 1e6
            let list = runs.map { format($0, 3) }.joined(separator: ", ")
            print(
                "| python3 \(mode) script (revenuecat, parse + map + write) | \(format(rate, 1)) | "
                    + "\(Int(Double(corpus.documents) / Statistics.median(runs))) | \(format(cpuRate, 1)) | | \(list) |"
            )
            if mode == "orjson", let swiftRate, let swiftCPURate {
                print(
                    "| ↳ migrate --jobs 1 / orjson script | \(format(swiftRate / rate, 2))× | | "
                        + "\(format(swiftCPURate / cpuRate, 2))× | | |")
            }
        }
    }

    private func megabytes(_ bytes: Int) -> String { format(Double(bytes) / 1e6, 1) }
}

func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

extension String {
    /// The record with its envelope's `appUserId` value replaced (the generators write it first).
    fileprivate func replacingFirstUserId(with id: String) -> String {
        guard let start = range(of: "{\"appUserId\":\""),
            let end = self[start.upperBound...].range(of: "\",\"provider\"")
        else { return self }
        return "{\"appUserId\":\"" + id + self[end.lowerBound...]
    }
}
