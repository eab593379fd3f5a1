import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// Signs Pub/Sub push tokens the way Google does — an OpenID Connect JWT, RS256, its key named by `kid` —
/// with the test kit's **throwaway RSA key**, and gives the matching JWKS document. Nothing signed here
/// verifies against Google's real keys: a test configures ``jwks`` as Google's keys.
///
/// ```swift
/// let signer = try GooglePlayTestPushSigner()
/// let header = signer.authorizationHeader(
///     audience: "https://api.example.com/play/push", email: "push@example.iam.gserviceaccount.com",
///     issuedAt: receivedAt)
/// // headers: ["Authorization": header]; keys: try GoogleSigningKeys(jwks: signer.jwks)
/// ```
public struct GooglePlayTestPushSigner: Sendable {
    /// The key's id, as the token's header and the JWKS name it.
    public let keyId: String
    /// A JWKS document holding the test key's public half: `{"keys": [{"kty": "RSA", …}]}`.
    public let jwks: Data
    private let key: RSAPublicKey
    private let privateExponent: [UInt8]

    /// The test kit's key, read from its resources.
    public init() throws {
        guard
            let url = Bundle.module.url(
                forResource: "google-oidc-test-key.NOT-A-SECRET", withExtension: "json", subdirectory: "TestKey")
        else { throw CocoaError(.fileNoSuchFile) }
        let file = try JSONNode(parsing: Data(contentsOf: url))
        func hex(_ name: String) throws -> [UInt8] {
            let digits = Array(try file.required(name).string().utf8)
            guard digits.count % 2 == 0 else { throw CocoaError(.fileReadCorruptFile) }
            return try stride(from: 0, to: digits.count, by: 2).map { index in
                guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                    throw CocoaError(.fileReadCorruptFile)
                }
                return byte
            }
        }
        keyId = try file.required("kid").string()
        key = try RSAPublicKey(modulus: hex("modulus"), publicExponent: hex("publicExponent"))
        privateExponent = try hex("privateExponent")
        let jwk = JSONValue.object([
            "kty": .string("RSA"), "alg": .string("RS256"), "use": .string("sig"), "kid": .string(keyId),
            "n": .string(Self.base64URL(key.modulusBytes)), "e": .string(Self.base64URL(key.publicExponentBytes)),
        ])
        jwks = Data(JSONValue.object(["keys": .array([jwk])]).compactText.utf8)
    }

    /// `Bearer <JWT>` for a push to `audience` from the service account `email`, issued at `issuedAt` and
    /// valid for an hour (Google's tokens are), its claims as Google writes them; `changes` alters the claims
    /// (a test's forged or expired token).
    public func authorizationHeader(
        audience: String, email: String, issuedAt: Date, changes: (inout [String: JSONValue]) -> Void = { _ in }
    ) -> String {
        let issued = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        var claims: [String: JSONValue] = [
            "iss": .string("https://accounts.google.com"), "aud": .string(audience), "azp": .string("1"),
            "email": .string(email), "email_verified": .bool(true), "iat": .integer(issued),
            "exp": .integer(issued + 3600), "sub": .string("1"),
        ]
        changes(&claims)
        return "Bearer " + token(claims: .object(claims))
    }

    /// A compact JWT of `claims` signed with RS256 under ``keyId``.
    public func token(claims: JSONValue) -> String {
        let header = JSONValue.object(["alg": .string("RS256"), "kid": .string(keyId), "typ": .string("JWT")])
        let signingInput =
            Self.base64URL(Array(header.compactText.utf8)) + "." + Self.base64URL(Array(claims.compactText.utf8))
        let digest = SHA256.digest(of: Array(signingInput.utf8))
        let signature = key.testSignature(sha256Digest: digest, privateExponent: privateExponent) ?? []
        return signingInput + "." + Self.base64URL(signature)
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
