import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid`. Foundation's `Process` on Linux
/// can miss a child's exit (a `pg_ctl` wrapper stayed a zombie while `waitUntilExit()` waited for good), so
/// the harness waits for its children itself.
public final class ChildProcess: @unchecked Sendable {
    // `status` is set once, under the lock, by whoever reaps the child.
    private let lock = NSLock()
    private var status: Int32?
    /// The child's process id.
    public let pid: pid_t

    /// Starts `executable` with `arguments` and exactly `environment`; standard output and error go to
    /// `output` (a file, appended to) or nowhere.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], output: URL? = nil)
        throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let target = output?.path ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw ServerFailure("cannot start \(executable): error \(result)") }
        pid = child
    }

    /// Whether the child has not exited yet (reaping it if it has).
    public var isRunning: Bool {
        lock.withLock {
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }
    }

    /// Sends `signal` to the child if it is still running.
    public func signal(_ signal: Int32) {
        if isRunning { _ = kill(pid, signal) }
    }

    /// Waits for the child's exit; its exit status (128 + the signal when a signal ended it).
    @discardableResult
    public func wait() -> Int32 {
        let raw: Int32 = lock.withLock {
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status = raw
            return raw
        }
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// Runs `executable` to its end: its exit status and what it wrote.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws
        -> (status: Int32, output: String)
    {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try ChildProcess(executable, arguments, environment: environment, output: log)
        let status = child.wait()
        return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
