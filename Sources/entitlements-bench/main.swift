import Foundation

// entitlements-bench: the figures of issue 12 in one run. See `Options.usage`; children of the bench
// (one per measured run) are started with the internal `--child-*` arguments.
do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "--child-migrate" where arguments.count == 3:
        print(try ChildRun.migrate(path: arguments[1], jobs: Int(arguments[2]) ?? 1))
    case "--child-parity" where arguments.count == 4:
        print(try ChildRun.parity(a: arguments[1], b: arguments[2], jobs: Int(arguments[3]) ?? 1))
    case "--child-warm" where arguments.count == 3:
        // Only the warm check, on the first record of a kept corpus (for profiling the client).
        let snapshot = try ChildRun.firstSnapshot(path: arguments[1])
        try await WarmCheck.report(snapshot: snapshot, iterations: Int(arguments[2]) ?? 100_000)
    case "--ecdsa":
        try ECDSABench.report(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path)
    case "--ledger":
        var megabytes = 100
        var scope = LedgerBench.Scope.all
        if arguments.count == 2, arguments[1] == "--ledger-threads" {
            scope = .threads
        } else if arguments.count == 2, arguments[1] == "--ledger-memory" {
            scope = .inMemory
        } else if arguments.count == 2, arguments[1] == "--ledger-stores" {
            scope = .stores
        } else if arguments.count == 2, arguments[1] == "--ledger-directory" {
            scope = .directory
        } else if arguments.count == 3, arguments[1] == "--ledger-log-mb", let value = Int(arguments[2]), value > 0 {
            megabytes = value
        } else if arguments.count != 1 {
            throw BenchFailure(
                "usage: entitlements-bench --ledger [--ledger-log-mb N | --ledger-threads | --ledger-memory "
                    + "| --ledger-stores | --ledger-directory]")
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        try await LedgerBench.report(logMegabytes: megabytes, scope: scope, executable: executable)
    case "--child-replay":
        print(try LedgerReplayRun.child(Array(arguments.dropFirst())))
    case "--import":
        try ImportPlanBench.report()
    case "--help", "-h":
        print(Options.usage)
    default:
        let options = try Options(arguments)
        let directory =
            options.corpusDirectory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "entitlements-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if options.corpusDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        try await Bench(options: options, directory: directory, executable: executable).run()
    }
} catch {
    FileHandle.standardError.write(Data("entitlements-bench: \(error)\n".utf8))
    exit(1)
}
