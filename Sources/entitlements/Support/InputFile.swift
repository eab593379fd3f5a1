import EntitlementKitMigration
import Foundation

/// A command-line input: a file path, or `-` for standard input.
struct InputFile {
    /// The argument as given.
    let argument: String

    /// The name used in messages: the path as given, `<stdin>` for `-`.
    var displayName: String { argument == "-" ? "<stdin>" : argument }

    var isStandardInput: Bool { argument == "-" }

    /// Opens the input for reading; a missing, unreadable or directory path is a `66` failure.
    func open() throws(CommandFailure) -> FileHandle {
        if isStandardInput { return FileHandle.standardInput }
        let descriptor = Foundation.open(argument, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure(
                status: .noInput, message: "\(displayName): cannot open: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw CommandFailure(status: .noInput, message: "\(displayName): cannot open: is a directory")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Whether `path` names this very file (same device and inode), e.g. through another spelling.
    func isSameFile(as path: String) -> Bool {
        guard !isStandardInput else { return false }
        var input = stat()
        var other = stat()
        guard stat(argument, &input) == 0, stat(path, &other) == 0 else { return false }
        return input.st_dev == other.st_dev && input.st_ino == other.st_ino
    }

    /// A JSON Lines reader over the input whose read errors name it.
    func lineReader() throws(CommandFailure) -> JSONLinesReader {
        let handle = try open()
        let name = displayName
        return JSONLinesReader { () throws(ReadFailure) -> Data? in
            do {
                return try handle.read(upToCount: 1 << 18)
            } catch {
                throw ReadFailure(message: "\(name): cannot read: \(error.localizedDescription)")
            }
        }
    }

    /// A read error in the middle of an input.
    struct ReadFailure: Error {
        var message: String
    }

    /// The whole input.
    func readAll() throws(CommandFailure) -> Data {
        let handle = try open()
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw CommandFailure(
                status: .ioError, message: "\(displayName): cannot read: \(error.localizedDescription)")
        }
    }
}
