import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests: it answers each request with the reply its handler
/// picks, one request per connection (`Connection: close`), and records every request as it arrived
/// (method, target exactly as sent, headers, body).
///
/// Everything is bounded: the server stops accepting after `lifetime` even if nobody calls ``stop()``,
/// reads give up after a second of silence, a stalled reply waits at most until the client hangs up or
/// the server stops.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// A request as the server received it.
    public struct RecordedRequest: Sendable, Hashable {
        /// `GET`, `POST`.
        public var method: String
        /// The request target exactly as sent: `/v1/subscribers/a%2Fb`.
        public var target: String
        /// Header fields in the order received.
        public var headers: [Header]
        /// The body.
        public var body: Data

        /// The first value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// One header field.
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// How the server answers one request.
    public enum Reply: Sendable {
        /// A complete response with `Content-Length`.
        case respond(status: Int, headers: [Header], body: Data)
        /// Declares `declaredLength` bytes, sends `body` (shorter), then closes.
        case truncated(status: Int, declaredLength: Int, body: Data)
        /// No `Content-Length`: the body ends when the connection closes.
        case closeDelimited(status: Int, body: Data)
        /// A head without `Content-Length` (with `chunked`, `Transfer-Encoding: chunked`), then `prefix` and
        /// body bytes without end, until the client hangs up or the server stops (or, so a client that reads
        /// everything cannot exhaust memory, after 64 MiB).
        case endless(status: Int, prefix: Data, chunked: Bool)
        /// Closes the connection without answering.
        case drop
        /// Never answers; holds the connection until the client hangs up or the server stops.
        case stall

        /// A JSON response.
        public static func json(_ status: Int, _ text: String, headers: [Header] = []) -> Reply {
            .respond(
                status: status, headers: [Header("Content-Type", "application/json")] + headers, body: Data(text.utf8))
        }

        /// A response with `body` of any type.
        public static func text(_ status: Int, _ text: String, contentType: String = "text/html") -> Reply {
            .respond(status: status, headers: [Header("Content-Type", contentType)], body: Data(text.utf8))
        }
    }

    /// The port the server listens on (127.0.0.1).
    public let port: UInt16
    /// `http://127.0.0.1:<port>/`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/")
    }

    private let listener: Int32
    private let handler: @Sendable (RecordedRequest, Int) -> Reply
    private let lock = NSLock()
    private var recorded: [RecordedRequest] = []
    private var stopped = false
    private var openConnections = 0
    private let deadline: ContinuousClock.Instant

    /// Starts a server whose `handler` picks the reply for each request (it also gets the request's
    /// index, 0 for the first).
    public init(
        lifetime: Duration = .seconds(120), handler: @escaping @Sendable (RecordedRequest, Int) -> Reply
    ) throws {
        self.handler = handler
        deadline = ContinuousClock.now + lifetime
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ServerError("bind/listen on 127.0.0.1 failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Starts a server that answers the n-th request with `replies[n]` (the last reply repeats).
    public convenience init(lifetime: Duration = .seconds(120), replies: [Reply]) throws {
        try self.init(lifetime: lifetime) { _, index in
            replies.isEmpty ? .drop : replies[min(index, replies.count - 1)]
        }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] {
        lock.withLock { recorded }
    }

    /// Stops accepting connections and ends stalled replies. Idempotent.
    public func stop() {
        lock.withLock { stopped = true }
    }

    deinit {
        stop()
    }

    private var isStopped: Bool {
        lock.withLock { stopped } || ContinuousClock.now >= deadline
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            // A client that stops reading must not hold a writing thread forever.
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let index: Int = lock.withLock {
                defer { openConnections += 1 }
                return openConnections
            }
            Thread.detachNewThread { [self] in serve(connection, index: index) }
        }
    }

    private func serve(_ connection: Int32, index: Int) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        lock.withLock { recorded.append(request) }
        switch handler(request, index) {
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Length: \(body.count)\r\n"
            head += "Connection: close\r\n"
            for header in headers { head += "\(header.name): \(header.value)\r\n" }
            write(connection, Data((head + "\r\n").utf8) + body)
        case .truncated(let status, let declaredLength, let body):
            let head =
                "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Length: \(declaredLength)\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
            write(connection, Data(head.utf8) + body)
        case .closeDelimited(let status, let body):
            let head =
                "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
            write(connection, Data(head.utf8) + body)
        case .endless(let status, let prefix, let chunked):
            streamEndlessly(connection, status: status, prefix: prefix, chunked: chunked)
        case .drop:
            return
        case .stall:
            var byte: UInt8 = 0
            while !isStopped {
                var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 20) > 0 else { continue }
                // Readable now means the client hung up (it has nothing more to send).
                if recv(connection, &byte, 1, 0) <= 0 { return }
            }
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    private func readRequest(_ connection: Int32) -> RecordedRequest? {
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            guard buffer.count < 256 * 1024 else { return nil }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3 else { return nil }
        var headers: [Header] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                Header(
                    String(line[..<colon]),
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var request = RecordedRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Data())
        if request.header("Expect")?.lowercased() == "100-continue" {
            write(connection, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        let length = Int(request.header("Content-Length") ?? "0") ?? 0
        var body = Data(buffer[headEnd.upperBound...])
        while body.count < min(length, 8 << 20) {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            body.append(contentsOf: chunk[0..<count])
        }
        request.body = body
        return request
    }

    /// Sends the body of `.endless` block by block; a failed send (the client hung up, or stopped reading
    /// for a second) or a stopped server ends it.
    private func streamEndlessly(_ connection: Int32, status: Int, prefix: Data, chunked: Bool) {
        var head =
            "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: application/json\r\nConnection: close\r\n"
        if chunked { head += "Transfer-Encoding: chunked\r\n" }
        let filler = Data(repeating: UInt8(ascii: "a"), count: 16 * 1024)
        var block = prefix.isEmpty ? filler : prefix  // an empty chunk would end a chunked body
        guard write(connection, Data((head + "\r\n").utf8)) else { return }
        // "Without end" to any sane client, yet bounded: a client that reads everything makes its test
        // fail on the body it got, not exhaust the machine's memory.
        var sent = 0
        while !isStopped, sent < Self.endlessStreamBound {
            let piece =
                chunked ? Data((String(block.count, radix: 16) + "\r\n").utf8) + block + Data("\r\n".utf8) : block
            guard write(connection, piece) else { return }
            sent += piece.count
            block = filler
        }
    }

    /// How much body `.endless` sends at most: a thousand times any cap the tests set.
    static let endlessStreamBound = 64 << 20

    /// Sends all of `data`; `false` when the connection failed first.
    @discardableResult
    private func write(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                    let sent = send(connection, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    let sent = send(connection, base + offset, bytes.count - offset, 0)
                #endif
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// The server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        public var description: String

        init(_ description: String) {
            self.description = description
        }
    }
}
