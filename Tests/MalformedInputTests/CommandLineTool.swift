import Foundation
import TestSupport
import Testing

/// Runs the built `entitlements` executable as a separate process, as a user would.
enum CommandLineTool {
    struct Outcome {
        var status: Int32
        var diedBySignal: Bool
        var stdout: Data
        var stderr: String
    }

    /// Runs `entitlements arguments…` in `directory` (see ``run(_:in:)``) off the cooperative pool
    /// (``offThePool(_:)``).
    static func runOnOwnThread(_ arguments: [String], in directory: URL) async throws -> Outcome {
        let outcome = try await offThePool { () throws -> Outcome in try launch(arguments, in: directory) }
        #expect(!outcome.diedBySignal, "the tool died by a signal: \(arguments)")
        return outcome
    }

    /// Runs `entitlements arguments…` in `directory`; output goes to files, so no pipe can fill up.
    static func run(_ arguments: [String], in directory: URL) throws -> Outcome {
        let outcome = try launch(arguments, in: directory)
        #expect(!outcome.diedBySignal, "the tool died by a signal: \(arguments)")
        return outcome
    }

    private static func launch(_ arguments: [String], in directory: URL) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("malformed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout")
        let errorURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "entitlements")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            diedBySignal: process.terminationReason != .exit,
            stdout: try Data(contentsOf: outputURL),
            stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }
}
