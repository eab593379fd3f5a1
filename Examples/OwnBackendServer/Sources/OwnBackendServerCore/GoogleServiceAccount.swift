import Foundation
import _CryptoExtras

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Google service account's key file (`GOOGLE_SERVICE_ACCOUNT_FILE`): its email, RSA key and token URI.
/// It signs the OAuth assertion (a JWT, RS256) that Google exchanges for an access token; the key never
/// leaves the process and is never logged.
public struct GoogleServiceAccount: Sendable {
    /// The account's email, the assertion's issuer.
    public let clientEmail: String
    /// Where the assertion is exchanged (the key file's `token_uri`).
    public let tokenURI: URL
    private let key: _RSA.Signing.PrivateKey

    /// Reads a key file as Google issues it (`client_email`, `private_key` in PEM, `token_uri`).
    public init(json: Data) throws(ConfigurationError) {
        struct KeyFile: Decodable {
            var client_email: String
            var private_key: String
            var token_uri: String?
        }
        let reason = "is not a service-account key file (client_email, private_key, token_uri)"
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: json),
            let key = try? _RSA.Signing.PrivateKey(pemRepresentation: file.private_key),
            let tokenURI = URL(string: file.token_uri ?? "https://oauth2.googleapis.com/token")
        else { throw ConfigurationError(variable: "GOOGLE_SERVICE_ACCOUNT_FILE", reason: reason) }
        clientEmail = file.client_email
        self.tokenURI = tokenURI
        self.key = key
    }

    /// The signed assertion for `scope`, valid an hour from `instant`, addressed to `audience`.
    func assertion(scope: String, audience: URL, at instant: Date) throws -> String {
        let issued = Int(instant.timeIntervalSince1970)
        let header = #"{"alg":"RS256","typ":"JWT"}"#
        let claims = try JSONSerialization.data(
            withJSONObject: [
                "iss": clientEmail, "scope": scope, "aud": audience.absoluteString, "iat": issued,
                "exp": issued + 3600,
            ], options: [.sortedKeys])
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(claims)
        let signature = try key.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}

/// Base64url without padding (RFC 7515).
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
