import Foundation

/// Runs a program to its end and returns its standard output.
enum Subprocess {
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchFailure("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
