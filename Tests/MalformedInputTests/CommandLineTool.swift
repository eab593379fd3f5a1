import Foundation
import Testing

/// Runs the built `entitlements` executable as a separate process, as a user would.
enum CommandLineTool {
    struct Outcome {
        var status: Int32
        var diedBySignal: Bool
        var stdout: Data
        var stderr: String
    }

    /// The executable: `ENTITLEMENTS_EXECUTABLE` when set, else next to the test bundle (where
    /// `swift test` built it), else `.build/debug`.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["ENTITLEMENTS_EXECUTABLE"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        for bundle in [Bundle.main] + Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("entitlements"))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("entitlements"))
        }
        candidates.append(
            MalformedCorpus.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/entitlements"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(searched: candidates.map(\.path))
        }
        return found
    }

    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the entitlements executable was not found; looked at " + searched.joined(separator: ", ")
        }
    }

    /// Runs `entitlements arguments…` in `directory` (see ``run(_:in:)``) on a thread of its own, so the
    /// wait for the process holds none of Swift Testing's cooperative threads (as many as cores, two here):
    /// tests blocking them starve concurrent async tests, whose loopback servers then outlive their
    /// lifetime and refuse connections.
    static func runOnOwnThread(_ arguments: [String], in directory: URL) async throws -> Outcome {
        let outcome = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try launch(arguments, in: directory) })
            }
        }
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
        process.executableURL = try executable()
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
