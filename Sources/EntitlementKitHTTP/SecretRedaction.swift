import Foundation

/// Blanks secrets (the API key) in what a backend sends back, before anything reads it.
///
/// A subscriber document never contains the key, so replacing it changes nothing a real answer says;
/// an error page that quotes the request's `Authorization` header would otherwise carry the key into an
/// ``EntitlementKit/EntitlementClientError``, a document error or the CLI's stderr.
package enum SecretRedaction {
    /// What a secret is replaced with.
    package static let placeholder = Data("<redacted>".utf8)

    /// `data` with every occurrence of every secret replaced by ``placeholder``.
    package static func redacting(_ secrets: [String], in data: Data) -> Data {
        var result = data
        for secret in secrets where !secret.isEmpty {
            let needle = Data(secret.utf8)
            var searchStart = result.startIndex
            while let found = result.range(of: needle, in: searchStart..<result.endIndex) {
                result.replaceSubrange(found, with: placeholder)
                searchStart = found.lowerBound + placeholder.count
            }
        }
        return result
    }

    /// `headers` with every secret blanked in every value.
    package static func redacting(_ secrets: [String], in headers: [String: String]) -> [String: String] {
        guard !secrets.isEmpty else { return headers }
        return headers.mapValues { value in
            secrets.reduce(value) { text, secret in
                secret.isEmpty ? text : text.replacingOccurrences(of: secret, with: "<redacted>")
            }
        }
    }
}
