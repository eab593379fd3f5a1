import Foundation
import TestSupport
import Testing

/// Runs the built `entitlements` executable, as a user would, and captures what it does.
enum EntitlementsTool {
    struct Result: Sendable {
        var status: Int32
        var diedBySignal: Bool
        var stdout: String
        var stderr: String
        var stderrLines: [String] {
            stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// The repository root.
    static let packageRoot = BuiltExecutable.packageRoot

    /// The built `entitlements` executable (see ``BuiltExecutable/url(named:)``).
    static func executable() throws -> URL {
        try BuiltExecutable.url(named: "entitlements")
    }

    /// `Fixtures/cross-provider/<name>`, relative to the repository root (the tool runs there).
    static func crossProvider(_ name: String) -> String {
        "Fixtures/cross-provider/" + name
    }

    /// Runs `entitlements arguments…` in `directory` (the repository root by default), feeding `stdin`,
    /// with this process's environment changed by `environment` (a `nil` value removes the variable).
    /// The wait for the process happens off the cooperative pool (``offThePool(_:)``).
    static func run(
        _ arguments: [String], stdin: Data = Data(), in directory: URL = packageRoot,
        environment: [String: String?] = [:]
    ) async throws -> Result {
        let result = try await offThePool { () throws -> Result in
            try launch(arguments, stdin: stdin, in: directory, environment: environment)
        }
        #expect(!result.diedBySignal, "the tool died by a signal: \(arguments)")
        return result
    }

    private static func launch(
        _ arguments: [String], stdin: Data, in directory: URL, environment: [String: String?]
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "entitlements-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputURL = scratch.appendingPathComponent("stdin")
        let outputURL = scratch.appendingPathComponent("stdout")
        let errorURL = scratch.appendingPathComponent("stderr")
        try stdin.write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            var changed = ProcessInfo.processInfo.environment
            for (name, value) in environment { changed[name] = value }
            process.environment = changed
        }
        // Files rather than pipes: nothing can deadlock on a full pipe buffer.
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            diedBySignal: process.terminationReason != .exit,
            stdout: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        )
    }

    /// Waits for `process` to exit, holding none of the cooperative threads.
    static func exit(of process: Process) async {
        await offThePool { () throws(Never) in process.waitUntilExit() }
    }

    /// The text of a repository file.
    static func repositoryFile(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// A scratch file with `contents`, removed by the caller via the returned directory.
    static func temporaryFile(named name: String, contents: String) throws -> (file: URL, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "entitlements-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: file)
        return (file, directory)
    }
}
