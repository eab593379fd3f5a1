import EntitlementKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a live provider sends its requests: the vendor's API or a proxy in front of it.
///
/// Only `https` is accepted, except on loopback (`127.0.0.0/8`, `::1`, `localhost`), where plain `http`
/// serves local proxies and tests: the API key travels in every request and must not cross a network
/// in clear text. The URL must not carry a user, password, query or fragment. A path is kept as a prefix
/// (`https://proxy.example.com/revenuecat/` + `v1/subscribers/…`). On Linux an IPv6 address literal
/// (`http://[::1]:8080`) is refused: FoundationNetworking's `URLSession` cannot reach one.
public struct BackendBaseURL: Sendable, Hashable, CustomStringConvertible {
    /// The base URL, ending in `/`.
    public let url: URL

    /// Checks `url`; an insecure or malformed one is ``EntitlementClientError/Code/credentialsRefused``
    /// (the key is not sent there).
    public init(_ url: URL) throws(EntitlementClientError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else {
            throw EntitlementClientError(
                .credentialsRefused,
                "the base URL \(DocumentError.shortened(url.absoluteString)) is not an absolute http(s) URL")
        }
        guard components.user == nil, components.password == nil, components.query == nil,
            components.fragment == nil
        else {
            throw EntitlementClientError(
                .credentialsRefused,
                "the base URL must not carry a user, password, query or fragment")
        }
        switch scheme {
        case "https":
            break
        case "http" where Self.isLoopback(host: host):
            break
        case "http":
            throw EntitlementClientError(
                .credentialsRefused,
                "refusing to send the API key over plain http to \(DocumentError.shortened(host)); use https (plain http is allowed only on loopback)"
            )
        default:
            throw EntitlementClientError(
                .credentialsRefused, "the base URL's scheme \(DocumentError.shortened(scheme)) is not https")
        }
        #if canImport(FoundationNetworking)
            // FoundationNetworking's URLSession (libcurl underneath) rejects every IPv6 literal host as a
            // bad URL; saying so here beats three retries and an "offline" that is not true.
            if host.hasPrefix("[") || host.contains(":") {
                throw EntitlementClientError(
                    .credentialsRefused,
                    "the base URL's host \(DocumentError.shortened(host)) is an IPv6 address literal, which URLSession on Linux cannot reach; use a host name or an IPv4 address (127.0.0.1 for loopback)"
                )
            }
        #endif
        var text = url.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        guard let normalized = URL(string: text) else {
            throw EntitlementClientError(
                .credentialsRefused, "the base URL \(DocumentError.shortened(url.absoluteString)) is malformed")
        }
        self.url = normalized
    }

    /// Parses and checks `text`.
    public init(_ text: String) throws(EntitlementClientError) {
        guard let url = URL(string: text) else {
            throw EntitlementClientError(
                .credentialsRefused, "the base URL \(DocumentError.shortened(text)) is malformed")
        }
        try self.init(url)
    }

    /// The URL of `path` (already percent-encoded, no leading `/`) below the base.
    package func appending(encodedPath path: String) -> URL? {
        URL(string: url.absoluteString + path)
    }

    /// The base URL.
    public var description: String { url.absoluteString }

    /// Whether `host` names this machine: `localhost`, an IPv4 address in `127.0.0.0/8`, or `::1`.
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "localhost." { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, name, &ipv6) == 1 {
            return withUnsafeBytes(of: &ipv6) { bytes in
                bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
            }
        }
        return false
    }
}
