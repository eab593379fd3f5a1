import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `own-backend-server` process, built beside the tests or the bench, on a free loopback port.
public final class ServerProcess: @unchecked Sendable {
    private let process: ChildProcess
    /// `http://127.0.0.1:PORT/`.
    public let baseURL: URL
    let errorLog: URL

    /// Starts the server with `environment` (added to a minimal one) and waits until `/healthz` answers
    /// (at most 60 s). A state directory in a new temporary folder unless `environment` names one.
    public init(environment: [String: String], port: Int? = nil) async throws {
        let port = try port ?? FreePort.next()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("own-backend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var variables = [
            "LEDGER_BIND": "127.0.0.1:\(port)", "LEDGER_STATE_DIR": folder.appendingPathComponent("state").path,
        ]
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        for (name, value) in environment { variables[name] = value }
        guard let url = URL(string: "http://127.0.0.1:\(port)/") else { throw ServerFailure("no URL for port \(port)") }
        baseURL = url
        errorLog = folder.appendingPathComponent("stderr.log")
        process = try ChildProcess(try Self.executable().path, [], environment: variables, output: errorLog)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if !process.isRunning {
                throw ServerFailure(
                    "the server exited at start: \(String(decoding: try Data(contentsOf: errorLog), as: UTF8.self))")
            }
            if let (status, _) = try? await HTTP.send("GET", baseURL.appendingPathComponent("healthz"), timeout: 2),
                status == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))  // polling a condition, bounded by the deadline
        }
        process.signal(SIGKILL)
        process.wait()
        throw ServerFailure("the server did not answer /healthz within 60 s")
    }

    deinit { stop() }

    /// SIGKILL: no chance to finish anything.
    public func kill() {
        process.signal(SIGKILL)
        process.wait()
    }

    /// SIGTERM, and waits for the exit.
    public func stop() {
        process.signal(SIGTERM)
        // A graceful stop, then a kill: a server whose database is gone may not finish shutting down.
        for _ in 0..<1000 where process.isRunning { usleep(10_000) }  // polling the exit, bounded (10 s)
        process.signal(SIGKILL)
        process.wait()
    }

    /// SIGTERM, then waits at most `limit` for the exit: its status, or `nil` when the server still ran
    /// (it is SIGKILLed then, so no process outlives the test).
    public func terminate(within limit: Duration) async -> Int32? {
        process.signal(SIGTERM)
        let polls = Int(limit.components.seconds * 100)
        for _ in 0..<polls where process.isRunning {
            try? await Task.sleep(for: .milliseconds(10))  // polling the exit, bounded by `limit`
        }
        guard process.isRunning else { return process.wait() }
        kill()
        return nil
    }

    /// What the server wrote on standard error.
    public var standardError: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// `own-backend-server` beside the test bundle or the running executable.
    public static func executable() throws -> URL {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("own-backend-server"))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("own-backend-server"))
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ServerFailure(
                "own-backend-server is not built beside the tests (looked in \(candidates.map(\.path)))")
        }
        return found
    }

    /// Runs the server with `environment` expecting it to exit at start: its status and standard error.
    public static func exitAtStart(environment: [String: String]) throws -> (status: Int32, standardError: String) {
        var variables = environment
        if variables["LEDGER_BIND"] == nil { variables["LEDGER_BIND"] = "127.0.0.1:\(try FreePort.next())" }
        let (status, output) = try ChildProcess.run(try executable().path, [], environment: variables)
        return (status, output)
    }

}

/// A harness step that could not be done.
public struct ServerFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A loopback port no one listens on now (bound, read, closed).
public enum FreePort {
    /// A free port.
    public static func next() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServerFailure("no socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw ServerFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// One HTTP exchange through URLSession.
public enum HTTP {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()

    /// The status and body of one request.
    public static func send(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 60
    ) async throws -> (Int, Data) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
