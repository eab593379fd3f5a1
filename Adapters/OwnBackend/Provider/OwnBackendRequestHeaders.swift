import EntitlementKit
import EntitlementKitHTTP
import Foundation

/// The headers the app made for one operation, checked, and the values to keep out of every error.
struct OwnBackendRequestHeaders {
    /// Header fields as sent, sorted by name so requests are the same from run to run.
    let fields: [(name: String, value: String)]
    /// Every value, and the credential after a scheme (`Bearer <token>`): what must never be shown.
    let secrets: [String]

    /// Headers the provider sets itself or that HTTP gives a meaning the app must not change.
    static let reservedNames: Set<String> = [
        "accept", "connection", "content-length", "content-type", "expect", "host", "te", "transfer-encoding",
        "upgrade",
    ]

    /// Calls `makeHeaders` for `appUserId` and checks what it answers: a name that is not an HTTP token,
    /// a reserved name, or a value holding control or non-ASCII characters is `credentialsRefused`
    /// naming the header (never its value).
    static func make(
        _ makeHeaders: OwnBackendProvider.RequestHeaders, for appUserId: String, operation: String
    ) async throws(EntitlementClientError) -> OwnBackendRequestHeaders {
        let headers: [String: String]
        do {
            headers = try await makeHeaders(appUserId)
        } catch let error as EntitlementClientError {
            throw error
        } catch {
            throw EntitlementClientError(
                .credentialsRefused, "\(operation): the app's request headers could not be made (\(type(of: error)))")
        }
        var fields: [(name: String, value: String)] = []
        var secrets: [String] = []
        for (name, value) in headers.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }) {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                throw EntitlementClientError(
                    .credentialsRefused,
                    "\(operation): the request header name \(DocumentError.quoted(name)) is not an HTTP token")
            }
            guard !reservedNames.contains(name.lowercased()) else {
                throw EntitlementClientError(
                    .credentialsRefused, "\(operation): the request header \(name) is set by the provider, not the app")
            }
            guard value.utf8.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) }) else {
                throw EntitlementClientError(
                    .credentialsRefused,
                    "\(operation): the value of request header \(name) holds control or non-ASCII characters")
            }
            fields.append((name, value))
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { secrets.append(trimmed) }
            if let credential = trimmed.split(separator: " ").last, credential.utf8.count < trimmed.utf8.count {
                secrets.append(String(credential))
            }
        }
        // Longest first, so a value is blanked whole before a part of it is.
        return OwnBackendRequestHeaders(fields: fields, secrets: secrets.sorted { $0.utf8.count > $1.utf8.count })
    }

    /// `response` with every secret blanked in its body and headers.
    func redacting(_ response: HTTPResponse) -> HTTPResponse {
        HTTPResponse(
            status: response.status, headers: SecretRedaction.redacting(secrets, in: response.headers),
            body: SecretRedaction.redacting(secrets, in: response.body), attempts: response.attempts)
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
