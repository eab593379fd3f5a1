import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// Checks a Stripe webhook's `Stripe-Signature` header against the raw request body, and reads the body as
/// the Event it must be.
///
/// ```swift
/// let verifier = StripeWebhookVerifier(secrets: [endpointSecret])
/// let event = try verifier.verify(
///     payload: Array(requestBody), signatureHeader: request.headers["Stripe-Signature"], at: .now)
/// let snapshot = try StripeAdapter().snapshot(from: event, at: .now)  // verification: verified
/// ```
///
/// The check (stripe-mapping.md, Webhooks): exactly one timestamp `t`; every `v1` value a candidate (a `v0`
/// or other scheme is never used); for each configured secret the lower-case hex HMAC-SHA256, keyed with the
/// whole `whsec_…` string, of the decimal timestamp, `.`, and the payload bytes; valid when some candidate
/// equals some expected value, compared in constant time; then the timestamp within `tolerance` seconds of
/// the instant received, **in both directions** (no way to turn it off); then the payload a strict-JSON
/// Event. Several configured secrets let an app accept either during its own secret roll-over; several `v1`
/// values are how Stripe signs while it rolls one.
///
/// Pass the instant the request was received, not the wall clock of a later replay, so an archive of
/// webhooks verifies the same whenever it is read.
public struct StripeWebhookVerifier: Sendable {
    /// The endpoint secrets accepted (`whsec_…`, each used whole as the HMAC key).
    public let secrets: [String]
    /// How far, in seconds, the signature's timestamp may be from the instant received.
    public let tolerance: Int

    /// 300 seconds, as Stripe's libraries default.
    public static let defaultTolerance = 300

    /// A verifier accepting a signature by any of `secrets`, within `tolerance` seconds (300 by default; a
    /// tolerance below zero accepts nothing).
    public init(secrets: [String], tolerance: Int = StripeWebhookVerifier.defaultTolerance) {
        self.secrets = secrets
        self.tolerance = tolerance
    }

    /// The Event of `payload` (the request body, byte for byte) when `signatureHeader` signs it with a
    /// configured secret within the tolerance of `receivedAt`; otherwise a ``StripeWebhookError`` naming the
    /// step that failed. A `nil` or empty header is ``StripeWebhookError/missingHeader``.
    public func verify(payload: [UInt8], signatureHeader: String?, at receivedAt: Date) throws(StripeWebhookError)
        -> StripeVerifiedEvent
    {
        guard let signatureHeader else { throw .missingHeader }
        let header = try StripeSignatureHeader(signatureHeader)
        // The decimal timestamp without leading zeros, as Stripe formats it when signing.
        let signed = Array(String(header.timestamp).utf8) + [UInt8(ascii: ".")] + payload
        let expected = secrets.map {
            Self.lowercaseHex(HMACSHA256.authenticationCode(for: signed, key: Array($0.utf8)))
        }
        // Every pair is compared, so the time taken says nothing about which came close.
        var matched = false
        for code in expected {
            for candidate in header.signatures where ConstantTimeComparison.isEqual(code, candidate) {
                matched = true
            }
        }
        guard matched else { throw .noMatchingSignature }

        let signedAt = Date(timeIntervalSince1970: TimeInterval(header.timestamp))
        let offset = receivedAt.timeIntervalSince1970 - TimeInterval(header.timestamp)
        if offset > TimeInterval(tolerance) {
            throw .staleTimestamp(signedAt: signedAt, receivedAt: receivedAt, tolerance: tolerance)
        }
        if -offset > TimeInterval(tolerance) {
            throw .futureTimestamp(signedAt: signedAt, receivedAt: receivedAt, tolerance: tolerance)
        }

        do throws(DocumentError) {
            let document = try JSONNode(parsing: Data(payload))
            guard document.kind == .object, let kind = document.member("object"),
                try kind.string() == "event"
            else {
                throw DocumentError(
                    kind: .unrecognizedFormat, path: document.member("object")?.path ?? document.path,
                    reason: "is not a Stripe event (\"object\": \"event\")")
            }
            let event = try StripeWireReader(appUserIdKey: "").event(document)
            return StripeVerifiedEvent(document: document, event: event, signedAt: signedAt)
        } catch {
            throw .notAnEvent(error)
        }
    }

    private static func lowercaseHex(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
