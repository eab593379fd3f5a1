import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A helper executable of the package (`cache-writer-for-tests`, `ledger-writer-for-tests`) run as a real
/// process and driven line by line. Its calls block, so tests make them through ``offThePool(_:)``; a
/// watchdog kills it after `limit`, so a hung helper fails the test instead of hanging it.
public final class HelperProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    // Touched only by the one thread that drives the helper.
    private var buffer = Data()

    /// Starts the executable `name`, built beside the test bundle, with `arguments`.
    public init(_ name: String, _ arguments: [String], limit: DispatchTimeInterval = .seconds(60)) throws {
        process.executableURL = try BuiltExecutable.url(named: name)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) { _ = sendSignal(pid, SIGKILL) }
    }

    /// Sends one line and returns the line the helper answers with (`nil`: it ended).
    public func ask(_ line: String) -> String? {
        send(line)
        return nextLine()
    }

    /// Sends one line without waiting for an answer.
    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next line the helper says, or `nil` when it ended first.
    public func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Kills the helper with SIGKILL and waits until it has ended.
    public func kill() {
        _ = sendSignal(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Closes its input (it ends) and waits until it has ended.
    public func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// `kill(2)`, under a name a method called `kill` does not shadow.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}
