// fuzz-modules: EntitlementKitGooglePlay
// fuzz-seeds: Fuzz/Seeds/googlepushauth
import EntitlementKit
import EntitlementKitCrypto
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation

/// The test kit's throwaway RSA key (its JSON resource, read from the repository root, where run.sh runs).
struct PushTestKey {
    let keyId: String
    let key: RSAPublicKey
    let privateExponent: [UInt8]
    /// `n` of the JWKS, base64url.
    let modulusText: String

    init() {
        let path = "Sources/EntitlementKitTesting/GooglePlay/TestKey/google-oidc-test-key.NOT-A-SECRET.json"
        guard let data = FileManager.default.contents(atPath: path), let file = try? JSONValue.parse(data),
            case .string(let keyId)? = file["kid"], case .string(let modulus)? = file["modulus"],
            case .string(let exponent)? = file["publicExponent"], case .string(let d)? = file["privateExponent"],
            let key = try? RSAPublicKey(modulus: Self.bytes(hex: modulus), publicExponent: Self.bytes(hex: exponent))
        else { fatalError("the test key \(path) does not read") }
        self.keyId = keyId
        self.key = key
        privateExponent = Self.bytes(hex: d)
        modulusText = pushBase64URL(key.modulusBytes)
    }

    var jwks: Data {
        let jwk = JSONValue.object([
            "kty": .string("RSA"), "alg": .string("RS256"), "use": .string("sig"), "kid": .string(keyId),
            "n": .string(modulusText), "e": .string(pushBase64URL(key.publicExponentBytes)),
        ])
        return Data(JSONValue.object(["keys": .array([jwk])]).compactText.utf8)
    }

    /// `header.claims.signature`, signed with RS256 by the test key over the exact bytes given.
    func token(header: [UInt8], claims: [UInt8]) -> String {
        let signingInput = pushBase64URL(header) + "." + pushBase64URL(claims)
        let signature =
            key.testSignature(
                sha256Digest: SHA256.digest(of: Array(signingInput.utf8)), privateExponent: privateExponent)
            ?? []
        return signingInput + "." + pushBase64URL(signature)
    }

    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }
}

func pushBase64URL(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    while text.hasSuffix("=") { text.removeLast() }
    return text
}

let pushKey = PushTestKey()
let pushAudience = "https://api.example.com/play/push"
let pushEmail = "rtdn-push@example-project.iam.gserviceaccount.com"
let pushReceivedAt = fuzzInstant

/// A well-formed test notification push: read as soon as its token is taken. Bytes, not `Data`: a `Data` kept
/// in a global is a leak LeakSanitizer cannot get right (Fuzz/README.md).
let pushBody: [UInt8] = {
    let notification = JSONValue.object([
        "version": .string("1.0"), "packageName": .string("com.acme.trails"),
        "eventTimeMillis": .string("1750000000000"), "testNotification": .object(["version": .string("1.0")]),
    ])
    let data = Data(notification.compactText.utf8).base64EncodedString()
    return Array(
        JSONValue.object([
            "message": .object([
                "data": .string(data), "messageId": .string("fuzz-1"), "publishTime": .string("2025-06-15T15:06:40Z"),
            ]),
            "subscription": .string("projects/acme/subscriptions/play"),
        ]).compactText.utf8)
}()

/// The claims Google writes for this subscription, issued a minute before the push arrived.
let pushClaims = Array(
    JSONValue.object([
        "iss": .string("https://accounts.google.com"), "aud": .string(pushAudience), "email": .string(pushEmail),
        "email_verified": .bool(true), "iat": .integer(1_749_999_940), "exp": .integer(1_750_003_540),
        "sub": .string("1"),
    ]).compactText.utf8)
let pushHeader = Array(
    JSONValue.object(["alg": .string("RS256"), "kid": .string(pushKey.keyId), "typ": .string("JWT")]).compactText.utf8)

/// Whether `keys` take the push with `authorization` (`nil`: no header): `false` for an `unauthenticated`
/// refusal; any other refusal of this well-formed push is a bug.
func pushAccepted(_ authorization: String?, keys: GoogleSigningKeys) -> Bool {
    let source = GooglePlayLedgerSource(
        packageName: "com.acme.trails",
        pushAuthentication: GooglePlayPushAuthentication(
            audience: pushAudience, serviceAccountEmail: pushEmail, keys: keys))
    let headers = authorization.map { ["Authorization": $0] } ?? [:]
    do {
        _ = try source.read(
            LedgerNotification(source: .googlePlay, body: Data(pushBody), headers: headers, receivedAt: pushReceivedAt))
        return true
    } catch {
        guard error.kind == .unauthenticated else { fatalError("the push was refused otherwise: \(error)") }
        let text = error.description
        guard text.utf8.count <= maximumErrorDescriptionBytes, !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D })
        else { fatalError("a refusal that is not one bounded line: \(text.prefix(200).debugDescription)") }
        return false
    }
}

/// Google's push authentication (the OIDC JWT and the JWKS it is checked against). The first byte picks
/// what the rest of the input is:
/// - 0: a JWKS document. It reads or is a located error; keys read from it take the test key's token only
///   when the document holds the test key's modulus under its id.
/// - 1: the `Authorization` header's value: nothing the fuzzer writes is signed by the test key, so it is
///   never taken.
/// - 2: the token's claims, signed correctly by the test key: taken only when `iss`, `aud`, `email`,
///   `email_verified`, `exp` and `iat` all hold.
/// - 3: the token's header, over correct claims, signed correctly: taken only when it says RS256 under the
///   test key's id and names no critical extension.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGooglePushAuthentication(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let rest = Array(input.dropFirst())
    let real: GoogleSigningKeys
    do {
        real = try GoogleSigningKeys(jwks: pushKey.jwks)
    } catch {
        fatalError("the test JWKS does not read: \(error)")
    }
    switch input[0] % 4 {
    case 0:
        let keys: GoogleSigningKeys
        do {
            keys = try GoogleSigningKeys(jwks: Data(rest))
        } catch {
            checkRefusal(error)
            return 0
        }
        let token = "Bearer " + pushKey.token(header: pushHeader, claims: pushClaims)
        if pushAccepted(token, keys: keys), !jwksHoldsTestKey(rest) {
            fatalError("a JWKS without the test key took its token: keys \(keys.keyIds)")
        }
    case 1:
        if pushAccepted(String(decoding: rest, as: UTF8.self), keys: real) {
            fatalError("an Authorization header the test key did not sign was taken")
        }
    case 2:
        let token = "Bearer " + pushKey.token(header: pushHeader, claims: rest)
        if pushAccepted(token, keys: real), !claimsHold(rest) {
            fatalError("claims that do not hold were taken: \(String(decoding: rest, as: UTF8.self))")
        }
    default:
        let token = "Bearer " + pushKey.token(header: rest, claims: pushClaims)
        if pushAccepted(token, keys: real), !headerHolds(rest) {
            fatalError("a header that does not hold was taken: \(String(decoding: rest, as: UTF8.self))")
        }
    }
    return 0
}

/// The claims' rules, read plainly: Google's issuer, this audience and service account, a verified email,
/// not expired at the push, issued no more than 5 minutes after it.
func claimsHold(_ bytes: [UInt8]) -> Bool {
    guard let claims = try? JSONValue.parse(Data(bytes)), case .object = claims else { return false }
    let received = pushReceivedAt.timeIntervalSince1970
    func seconds(_ name: String) -> Double? {
        switch claims[name] {
        case .integer(let value)?: Double(value)
        case .double(let value)? where value.isFinite: value
        default: nil
        }
    }
    guard case .string(let issuer)? = claims["iss"],
        issuer == "accounts.google.com" || issuer == "https://accounts.google.com",
        claims["aud"] == .string(pushAudience), claims["email"] == .string(pushEmail),
        claims["email_verified"] == .bool(true), let expiry = seconds("exp"), expiry > received,
        let issued = seconds("iat"), issued <= received + 300
    else { return false }
    return true
}

func headerHolds(_ bytes: [UInt8]) -> Bool {
    guard let header = try? JSONValue.parse(Data(bytes)), case .object = header else { return false }
    return header["alg"] == .string("RS256") && header["kid"] == .string(pushKey.keyId) && header["crit"] == nil
}

/// Whether the JWKS document holds, under the test key's id, a key whose `n` is the test key's modulus
/// (read leniently: leading zero bytes and padding allowed).
func jwksHoldsTestKey(_ bytes: [UInt8]) -> Bool {
    guard let document = try? JSONValue.parse(Data(bytes)), case .array(let keys)? = document["keys"] else {
        return false
    }
    let modulus = Array(pushKey.key.modulusBytes.drop { $0 == 0 })
    return keys.contains { key in
        guard key["kid"] == .string(pushKey.keyId), case .string(let text)? = key["n"] else { return false }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 = base64.replacingOccurrences(of: "=", with: "")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let decoded = Data(base64Encoded: base64) else { return false }
        return Array(decoded.drop { $0 == 0 }) == modulus
    }
}
