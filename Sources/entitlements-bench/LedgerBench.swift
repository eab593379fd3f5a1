import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitStripe
import EntitlementKitTesting
import Foundation

/// The ledger's figures (`--ledger [--ledger-log-mb N]`, issue 32): inputs applied per CPU-second —
/// App Store notifications with every signature checked, Play and Stripe documents — into the in-memory
/// and the directory store (syncing every commit, as a server does, and in batches, as the bulk commands
/// do); the cost per input of one 1,000-renewal thread against 1,000 one-renewal
/// threads; and the peak memory of `entitlements ledger replay` (a child process, built beside the
/// bench) on a generated log of about 100 MB. Each rate is the median of `rounds` rounds, each into a
/// fresh ledger; CPU time, not wall time, because the machine is shared.
enum LedgerBench {
    /// What a run measures: everything, only the long thread against the many short ones, only the
    /// in-memory rates (for profiling the ledger's own work without disk or child processes), only the
    /// table of the stores' rates, or only Play and Stripe into the batched directory store (for profiling
    /// the store's own work).
    enum Scope { case all, threads, inMemory, stores, directory }

    static func report(logMegabytes: Int = 100, rounds: Int = 3, scope: Scope = .all, executable: String)
        async throws
    {
        let inputs = try LedgerBenchInputs()
        line("\nledger bench on \(Machine.description), load \(Machine.loadAverage)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inMemory: () throws -> any LedgerStore = { InMemoryLedgerStore() }
        let inDirectory: () throws -> any LedgerStore = {
            try DirectoryLedgerStore(directory: scratch.appendingPathComponent(UUID().uuidString))
        }
        let inBatchedDirectory: () throws -> any LedgerStore = {
            try DirectoryLedgerStore(directory: scratch.appendingPathComponent(UUID().uuidString), syncing: .batched)
        }

        switch scope {
        case .threads:
            try await threadCost(inputs: inputs, rounds: rounds, root: inputs.signer.rootCertificate, store: inMemory)
            return
        case .inMemory:
            try await inMemoryRates(inputs: inputs, rounds: rounds, store: inMemory)
            return
        case .directory:
            try await directoryRates(inputs: inputs, rounds: rounds, inMemory: inMemory, store: inBatchedDirectory)
            return
        case .all, .stores: break
        }
        if scope == .all {
            try await replayFigures(
                inputs: inputs, logMegabytes: logMegabytes, scratch: scratch, executable: executable)
        }
        try await storeRates(
            inputs: inputs, rounds: rounds, inMemory: inMemory, inDirectory: inDirectory,
            inBatchedDirectory: inBatchedDirectory)
        if scope == .stores { return }
        try await threadCost(inputs: inputs, rounds: rounds, root: inputs.signer.rootCertificate, store: inMemory)
        line("\nload average after: \(Machine.loadAverage)")
    }

    /// The peak memory and CPU time of `entitlements ledger replay` on a generated log, with and without
    /// `--state`.
    private static func replayFigures(
        inputs: LedgerBenchInputs, logMegabytes: Int, scratch: URL, executable: String
    ) async throws {
        var replay = try LedgerReplayRun(inputs: inputs, directory: scratch, executable: executable)
        try replay.writeLog(megabytes: logMegabytes)
        line(
            "\n| `entitlements ledger replay`, \(replay.describeLog) | CPU seconds | inputs per CPU-second | peak RSS |"
        )
        line("|---|---|---|---|")
        for state in [true, false] {
            let figures = try replay.measure(keepingState: state)
            line(
                "| \(state ? "--state DIR" : "in memory") | \(String(format: "%.1f", figures.cpuSeconds)) | "
                    + "\(format(Double(replay.lineCount) / figures.cpuSeconds)) | \(figures.peakKiB >> 10) MiB |")
        }
    }

    /// The rate table: each input kind into the in-memory store and the directory store, syncing every
    /// commit and in batches, and in /dev/shm.
    private static func storeRates(
        inputs: LedgerBenchInputs, rounds: Int, inMemory: () throws -> any LedgerStore,
        inDirectory: () throws -> any LedgerStore, inBatchedDirectory: () throws -> any LedgerStore
    ) async throws {
        let root = inputs.signer.rootCertificate

        // The same directory store in memory-backed files (/dev/shm, where a sync costs nothing): what the
        // store itself costs, apart from the kernel's work to make each commit durable.
        let shm = URL(fileURLWithPath: "/dev/shm").appendingPathComponent("ledger-bench-\(getpid())")
        let hasShm = (try? FileManager.default.createDirectory(at: shm, withIntermediateDirectories: true)) != nil
        defer { try? FileManager.default.removeItem(at: shm) }
        let inShm: () throws -> any LedgerStore = {
            try DirectoryLedgerStore(directory: shm.appendingPathComponent(UUID().uuidString))
        }
        line(
            "\n| ledger input | in-memory store, per CPU-second | directory store, every commit synced | / memory "
                + "| directory store, synced every 256 | / memory | every commit, in /dev/shm (no sync cost) "
                + "| / memory |")
        line("|---|---|---|---|---|---|---|---|")
        for (name, batch) in batches(inputs) {
            let memory = try await rate(of: batch, rounds: rounds, root: root, store: inMemory)
            // Every directory commit is synced to disk: on a shared disk the wall time, not the CPU, bounds
            // how much of it a run can afford, so one round of a fifth of the inputs.
            let directory = try await rate(
                of: Array(batch.prefix(batch.count / 5)), rounds: 1, root: root, store: inDirectory)
            let batched = try await rate(
                of: Array(batch.prefix(batch.count / 5)), rounds: 1, root: root, store: inBatchedDirectory)
            let memoryFiles =
                hasShm
                ? try await rate(of: Array(batch.prefix(batch.count / 5)), rounds: 1, root: root, store: inShm) : 0
            line(
                "| \(name) | \(format(memory)) | \(format(directory)) | \(String(format: "%.2f", directory / memory)) | "
                    + "\(format(batched)) | \(String(format: "%.2f", batched / memory)) | "
                    + (hasShm
                        ? "\(format(memoryFiles)) | \(String(format: "%.2f", memoryFiles / memory)) |" : "– | – |"))
        }
    }

    /// The inputs of the rate table, by name: 1,000 App Store threads, 5,000 Play and 5,000 Stripe ones.
    private static func batches(_ inputs: LedgerBenchInputs) -> [(String, [LedgerInput])] {
        let wide = (0..<1_000).map { LedgerInput.notification(inputs.appStoreNotification(thread: $0, renewal: 0)) }
        let play = (0..<5_000).map { LedgerInput.document(inputs.playDocument(thread: $0, renewal: 0)) }
        let stripe = (0..<5_000).map { LedgerInput.document(inputs.stripeDocument(thread: $0, renewal: 0)) }
        return [
            ("App Store notification (3 JWS verified), 1,000 threads", wide), ("Play document, 5,000 threads", play),
            ("Stripe subscription, 5,000 threads", stripe),
        ]
    }

    /// Only the in-memory column of the rate table.
    private static func inMemoryRates(
        inputs: LedgerBenchInputs, rounds: Int, store: () throws -> any LedgerStore
    ) async throws {
        line("\n| ledger input | in-memory store, per CPU-second |")
        line("|---|---|")
        for (name, batch) in batches(inputs) {
            let memory = try await rate(of: batch, rounds: rounds, root: inputs.signer.rootCertificate, store: store)
            line("| \(name) | \(format(memory)) |")
        }
    }

    /// Play and Stripe documents into the in-memory and the batched directory store, no App Store
    /// notification (their signing would dominate a profile).
    private static func directoryRates(
        inputs: LedgerBenchInputs, rounds: Int, inMemory: () throws -> any LedgerStore,
        store: () throws -> any LedgerStore
    ) async throws {
        let root = inputs.signer.rootCertificate
        line("\n| ledger input | in-memory store, per CPU-second | directory store, synced every 256 | / memory |")
        line("|---|---|---|---|")
        for (name, make) in [("Play document", inputs.playDocument), ("Stripe subscription", inputs.stripeDocument)] {
            let batch = (0..<5_000).map { LedgerInput.document(make($0, 0)) }
            let memory = try await rate(of: batch, rounds: rounds, root: root, store: inMemory)
            let directory = try await rate(of: batch, rounds: rounds, root: root, store: store)
            line(
                "| \(name), 5,000 threads | \(format(memory)) | \(format(directory)) | "
                    + "\(String(format: "%.2f", directory / memory)) |")
        }
    }

    /// The cost per App Store notification of 1,000 one-renewal threads and of one 1,000-renewal thread.
    private static func threadCost(
        inputs: LedgerBenchInputs, rounds: Int, root: Data, store: () throws -> any LedgerStore
    ) async throws {
        let threads = 1_000
        let wide = (0..<threads).map { LedgerInput.notification(inputs.appStoreNotification(thread: $0, renewal: 0)) }
        let long = (0..<threads).map {
            LedgerInput.notification(inputs.appStoreNotification(thread: threads, renewal: $0))
        }
        let wideRate = try await rate(of: wide, rounds: rounds, root: root, store: store)
        let longRate = try await rate(of: long, rounds: rounds, root: root, store: store)
        line("\n| App Store, in memory | µs per input | ratio |")
        line("|---|---|---|")
        line("| 1,000 one-renewal threads | \(String(format: "%.0f", 1e6 / wideRate)) | 1 |")
        line(
            "| one 1,000-renewal thread | \(String(format: "%.0f", 1e6 / longRate)) | \(String(format: "%.2f", wideRate / longRate))× |"
        )

    }

    /// Inputs per CPU-second: the median over rounds of (inputs / CPU seconds to apply them all to a new
    /// ledger on `store()`).
    private static func rate(
        of batch: [LedgerInput], rounds: Int, root: Data, store: () throws -> any LedgerStore
    ) async throws -> Double {
        var rates: [Double] = []
        for _ in 0..<rounds {
            let ledger = EntitlementLedger(sources: sources(root: root), store: try store())
            let start = Machine.cpuSeconds
            for input in batch {
                let outcome = try await ledger.apply(input)
                guard outcome != .duplicate else { throw BenchFailure("a bench input was a duplicate") }
            }
            // A batched store's last, partial batch is synced as the bulk commands sync it, before exiting.
            try await (ledger.store as? DirectoryLedgerStore)?.sync()
            rates.append(Double(batch.count) / (Machine.cpuSeconds - start))
        }
        return Statistics.median(rates)
    }

    static func sources(root: Data) -> [any LedgerSource] {
        let catalog = LedgerBenchInputs.catalog
        return [
            AppStoreLedgerSource(catalog: catalog, bundleId: LedgerBenchInputs.bundleId, rootCertificates: [root]),
            GooglePlayLedgerSource(catalog: catalog, packageName: LedgerBenchInputs.packageName),
            StripeLedgerSource(catalog: catalog, webhookSecrets: []),
        ]
    }

    /// Prints `text` at once: a long run on a busy machine shows each figure as it is measured.
    private static func line(_ text: String) {
        print(text)
        fflush(nil)
    }

    static func format(_ rate: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 0
        return formatter.string(from: NSNumber(value: rate)) ?? String(format: "%.0f", rate)
    }
}
