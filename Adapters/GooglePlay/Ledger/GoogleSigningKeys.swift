import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// Google's public keys for OpenID Connect tokens, read from a JWKS document (RFC 7517;
/// `https://www.googleapis.com/oauth2/v3/certs`), by key id. The server fetches and refreshes the
/// document; the package fetches nothing.
///
/// Only RSA keys are kept (`kty` `RSA`, `n` and `e` base64url, 2048 to 4096 bits): Google signs these
/// tokens with RS256. A key of another type is skipped; an RSA key that does not read, a key without
/// `kid` or a `kid` given twice is a located error, so a damaged document is noticed, not half-used.
public struct GoogleSigningKeys: Sendable {
    let keys: [String: RSAPublicKey]

    /// The key ids read, sorted.
    public var keyIds: [String] { keys.keys.sorted() }

    /// The RSA keys of the JWKS document `jwks`.
    public init(jwks: Data) throws(DocumentError) {
        let document = try JSONNode(parsing: jwks)
        var keys: [String: RSAPublicKey] = [:]
        for key in try document.required("keys").elements() {
            guard try key.required("kty").string() == "RSA" else { continue }
            if let use = try key.optional("use"), try use.string() != "sig" { continue }
            if let algorithm = try key.optional("alg"), try algorithm.string() != "RS256" { continue }
            let idNode = try key.required("kid")
            let id = try idNode.string()
            guard !id.isEmpty else { throw idNode.invalid("is empty") }
            guard keys[id] == nil else { throw idNode.invalid("names a second key with the same id") }
            let modulus = try Self.unsignedInteger(key.required("n"))
            let exponent = try Self.unsignedInteger(key.required("e"))
            do {
                keys[id] = try RSAPublicKey(modulus: modulus, publicExponent: exponent)
            } catch {
                throw key.invalid("is not a usable RSA key (\(error))")
            }
        }
        self.keys = keys
    }

    /// A JWK's base64url big-endian integer.
    private static func unsignedInteger(_ node: JSONNode) throws(DocumentError) -> [UInt8] {
        guard let bytes = Base64URLText.decode(try node.string()), !bytes.isEmpty else {
            throw node.invalid("is not base64url")
        }
        return bytes
    }
}

/// Strict base64url without padding (RFC 7515 §2): the JWT's parts and the JWK's numbers.
enum Base64URLText {
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for character in text.unicodeScalars {
            switch character {
            case "A"..."Z", "a"..."z", "0"..."9": standard.unicodeScalars.append(character)
            case "-": standard += "+"
            case "_": standard += "/"
            default: return nil
            }
        }
        guard standard.utf8.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { Array($0) }
    }
}
