import EntitlementKit
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation

/// `entitlements ledger replay` on a generated log, in a child process whose peak resident memory and CPU
/// time are read back by a bench process of its own (`getrusage(RUSAGE_CHILDREN)` of a process with
/// that one child, as `ChildRun` measures `migrate`).
///
/// The log is an archive of App Store subscriptions, each purchased and renewed monthly (twelve
/// notifications a thread, every JWS signed by the test chain), written as it is made.
struct LedgerReplayRun {
    let inputs: LedgerBenchInputs
    let directory: URL
    /// The bench's own executable, started again for each measured run.
    let bench: String
    /// The `entitlements` executable built beside the bench.
    let entitlements: String
    private(set) var lineCount = 0
    private(set) var byteCount = 0

    init(inputs: LedgerBenchInputs, directory: URL, executable: String) throws {
        self.inputs = inputs
        self.directory = directory
        bench = executable
        entitlements =
            URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(
                "entitlements"
            ).path
        guard FileManager.default.isExecutableFile(atPath: entitlements) else {
            throw BenchFailure(
                "\(entitlements) is missing: build it first (swift build -c release --product entitlements)")
        }
    }

    var log: URL { directory.appendingPathComponent("replay.jsonl") }

    /// `40,116 lines, 100 MB`.
    var describeLog: String {
        "\(LedgerBench.format(Double(lineCount))) App Store notifications, \(byteCount / 1_000_000) MB"
    }

    /// Writes notifications until the log holds `megabytes` MB.
    mutating func writeLog(megabytes: Int) throws {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw BenchFailure("cannot create \(log.path)")
        }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        var thread = 0
        while byteCount < megabytes * 1_000_000 {
            var text = ""
            for renewal in 0..<12 {
                let notification = inputs.appStoreNotification(thread: 100_000 + thread, renewal: renewal)
                let line = JSONValue.object([
                    "notification": .object([
                        "source": .string("appStore"),
                        "body": .string(String(decoding: notification.body, as: UTF8.self)),
                    ]),
                    "receivedAt": .string(RFC3339.string(from: notification.receivedAt)),
                ])
                text += line.compactText + "\n"
                lineCount += 1
            }
            thread += 1
            byteCount += text.utf8.count
            try handle.write(contentsOf: Data(text.utf8))
        }
        try Data(
            JSONValue.object([
                "products": .object([
                    "com.acme.trails.pro.monthly": .object(["entitlements": .array([.string("pro")])])
                ])
            ]).compactText.utf8
        ).write(to: directory.appendingPathComponent("catalog.json"))
        try inputs.signer.rootCertificate.write(to: directory.appendingPathComponent("root.der"))
    }

    /// Replays the log in a child, with its ledger kept in a new `--state` folder or in memory: the bench
    /// starts itself again with `--child-replay`, which runs `entitlements` and reports its figures alone.
    func measure(keepingState: Bool) throws -> (cpuSeconds: Double, peakKiB: Int) {
        var arguments = [
            "ledger", "replay", "--catalog", directory.appendingPathComponent("catalog.json").path,
            "--root-certificate", directory.appendingPathComponent("root.der").path, "--bundle-id",
            LedgerBenchInputs.bundleId, "--at", "2026-01-01T00:00:00Z",
        ]
        if keepingState {
            arguments += ["--state", directory.appendingPathComponent("state-\(UUID().uuidString)").path]
        }
        let output = try Subprocess.run(bench, ["--child-replay", entitlements] + arguments + [log.path])
        let fields = output.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let cpu = Double(fields[0]), let peak = Int(fields[1]) else {
            throw BenchFailure("--child-replay printed \(output)")
        }
        return (cpu, peak)
    }

    /// `--child-replay EXECUTABLE ARGUMENTS…`: runs the executable (its output dropped) and prints
    /// `cpu-seconds peak-KiB` of that one child; a failure exits non-zero with its standard error.
    static func child(_ arguments: [String]) throws -> String {
        guard let executable = arguments.first else { throw BenchFailure("--child-replay needs an executable") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: stderr.prefix(2000), as: UTF8.self)
            throw BenchFailure("ledger replay exited \(process.terminationStatus): \(text)")
        }
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return "\(seconds(usage.ru_utime) + seconds(usage.ru_stime)) \(usage.ru_maxrss)"
    }
}
