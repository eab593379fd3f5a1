import Foundation
import ServerHarness
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGTERM ends the server, gracefully when it can and within its deadline when a request never
/// finishes; no database needed (the embedded store).
@Suite(.timeLimit(.minutes(2)))
struct ShutdownTests {
    @Test func sigtermEndsAnIdleServerCleanly() async throws {
        let server = try await ServerProcess(environment: [:])
        #expect(await server.terminate(within: .seconds(15)) == 0, "\(server.standardError)")
    }

    @Test func sigtermEndsTheServerWithinItsDeadlineThoughARequestNeverFinishes() async throws {
        let server = try await ServerProcess(environment: [:])
        // A client that sent its headers and a tenth of its body, and then nothing: the request stays in
        // flight for good, and a graceful shutdown without a deadline waits for it forever.
        let stalled = try StalledRequest(to: server.baseURL, path: "/notifications/appstore")
        defer { stalled.hangUp() }
        // One full exchange after it: the server has read the stalled request's head by then.
        #expect(try await HTTP.send("GET", server.baseURL.appendingPathComponent("healthz")).0 == 200)
        let status = await server.terminate(within: .seconds(15))
        #expect(status != nil, "the server still ran 15 s after SIGTERM: \(server.standardError)")
    }
}

/// A POST whose body never arrives in full: a socket left open after part of the body.
struct StalledRequest {
    private let socket: Int32

    init(to server: URL, path: String) throws {
        guard let port = server.port else { throw ServerFailure("no port in \(server)") }
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServerFailure("no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        let head =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n"
            + String(repeating: "x", count: 100)
        let sent = Array(head.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        guard connected, sent == head.utf8.count else {
            close(socket)
            throw ServerFailure("cannot send the stalled request")
        }
    }

    func hangUp() { close(socket) }
}
