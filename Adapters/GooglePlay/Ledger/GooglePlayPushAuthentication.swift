import EntitlementKit
import EntitlementKitCrypto
import EntitlementKitLedger
import Foundation

/// How a Play source authenticates Pub/Sub pushes: each push carries `Authorization: Bearer <JWT>`, an
/// OpenID Connect token Google signs with RS256 for the push subscription's service account.
///
/// ```swift
/// let authentication = GooglePlayPushAuthentication(
///     audience: "https://api.example.com/play/push",
///     serviceAccountEmail: "rtdn-push@example-project.iam.gserviceaccount.com",
///     keys: try GoogleSigningKeys(jwks: googleCertsDocument))
/// let play = GooglePlayLedgerSource(packageName: "com.example.app", pushAuthentication: authentication)
/// ```
///
/// A push is taken only when the token's signature verifies under the key its header names (`kid`), `iss`
/// is `accounts.google.com` or `https://accounts.google.com`, `aud` and `email` are the configured ones,
/// `email_verified` is true, `exp` is after the push's `receivedAt` and `iat` not after `receivedAt` plus 5
/// minutes. Anything else is refused `unauthenticated`, and nothing of the push is stored.
public struct GooglePlayPushAuthentication: Sendable {
    /// The audience the push subscription puts in its tokens (`aud`).
    public var audience: String
    /// The push subscription's service account (`email`).
    public var serviceAccountEmail: String
    /// Google's current keys.
    public var keys: GoogleSigningKeys

    /// An authentication expecting tokens for `audience` from `serviceAccountEmail`, signed by `keys`.
    public init(audience: String, serviceAccountEmail: String, keys: GoogleSigningKeys) {
        self.audience = audience
        self.serviceAccountEmail = serviceAccountEmail
        self.keys = keys
    }

    /// How far a token's `iat` may run ahead of the instant the push was received (clocks differ).
    static let allowedClockSkew: TimeInterval = 5 * 60

    /// Checks the `Authorization` header among `headers` (its name in any case) for a push received at
    /// `receivedAt`; `messageId` names the push in the refusal.
    func authenticate(headers: [String: String], receivedAt: Date, messageId: String) throws(LedgerRefusal) {
        do {
            try check(headers: headers, receivedAt: receivedAt)
        } catch {
            throw LedgerRefusal(
                .unauthenticated, "push \(DocumentError.quoted(messageId)) is not authenticated: \(error.reason)")
        }
    }

    struct Failure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private func check(headers: [String: String], receivedAt: Date) throws(Failure) {
        let values = headers.filter { $0.key.lowercased() == "authorization" }.map(\.value)
        guard values.count == 1, let value = values.first else {
            throw Failure(values.isEmpty ? "it has no Authorization header" : "it has several Authorization headers")
        }
        guard value.hasPrefix("Bearer "), case let token = value.dropFirst("Bearer ".count), !token.isEmpty else {
            throw Failure("its Authorization header is not a Bearer token")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URLText.decode(parts[0]),
            let payloadBytes = Base64URLText.decode(parts[1]), let signature = Base64URLText.decode(parts[2])
        else { throw Failure("its token is not a JWT (three base64url parts)") }
        guard case .object(let header)? = try? JSONValue.parse(Data(headerBytes)) else {
            throw Failure("its token's header is not a JSON object")
        }
        guard case .string("RS256")? = header["alg"] else { throw Failure("its token is not signed with RS256") }
        guard header["crit"] == nil else { throw Failure("its token's header names critical extensions (crit)") }
        guard case .string(let keyId)? = header["kid"] else { throw Failure("its token's header names no key (kid)") }
        guard let key = keys.keys[keyId] else {
            throw Failure("its token is signed by key \(DocumentError.quoted(keyId)), which is not among Google's keys")
        }
        var signed = SHA256()
        signed.update(Array(parts[0].utf8))
        signed.update(CollectionOfOne(UInt8(ascii: ".")))
        signed.update(Array(parts[1].utf8))
        guard key.isValidSignature(signature, sha256Digest: signed.finalize()) else {
            throw Failure("its token's signature does not verify under key \(DocumentError.quoted(keyId))")
        }
        guard case .object(let claims)? = try? JSONValue.parse(Data(payloadBytes)) else {
            throw Failure("its token's claims are not a JSON object")
        }
        guard case .string(let issuer)? = claims["iss"],
            issuer == "accounts.google.com" || issuer == "https://accounts.google.com"
        else { throw Failure("its token is not issued by accounts.google.com (iss)") }
        guard case .string(audience)? = claims["aud"] else {
            throw Failure("its token is not for the configured audience (aud)")
        }
        guard case .string(serviceAccountEmail)? = claims["email"] else {
            throw Failure("its token is not for the configured service account (email)")
        }
        guard case .bool(true)? = claims["email_verified"] else {
            throw Failure("its token's email is not verified (email_verified)")
        }
        guard let expiry = Self.seconds(claims["exp"]) else { throw Failure("its token has no expiry (exp)") }
        guard expiry > receivedAt else { throw Failure("its token expired before the push was received (exp)") }
        guard let issuedAt = Self.seconds(claims["iat"]) else { throw Failure("its token has no issue time (iat)") }
        guard issuedAt <= receivedAt.addingTimeInterval(Self.allowedClockSkew) else {
            throw Failure("its token was issued more than 5 minutes after the push was received (iat)")
        }
    }

    /// A NumericDate (RFC 7519 §2): seconds since 1970, an integer (Google's) or a finite number, within
    /// the years a date can hold (`EpochTime`'s rule; a fraction kept to the millisecond).
    private static func seconds(_ value: JSONValue?) -> Date? {
        switch value {
        case .integer(let seconds)?: EpochTime.date(secondsSince1970: seconds)
        case .double(let seconds)?: EpochTime.date(secondsSince1970: seconds)
        default: nil
        }
    }
}
