import EntitlementKit
import Foundation

/// Why ``StripeWebhookVerifier`` refused a webhook: nothing of its body may be used.
public enum StripeWebhookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request carried no `Stripe-Signature` header (or an empty one).
    case missingHeader
    /// The header has no timestamp, several, or one that is not 1–12 ASCII digits; the text says which.
    case malformedHeader(String)
    /// The header has no `v1` signature (a `v0` or another scheme is never used: no downgrade).
    case noV1Signature
    /// No `v1` signature is the HMAC-SHA256 of the payload under any configured secret: a wrong or
    /// rotated-out secret, or a body changed on the way (re-serialised JSON fails too).
    case noMatchingSignature
    /// The signature's timestamp is older than the tolerance allows at the instant received.
    case staleTimestamp(signedAt: Date, receivedAt: Date, tolerance: Int)
    /// The signature's timestamp is further ahead of the instant received than the tolerance allows.
    case futureTimestamp(signedAt: Date, receivedAt: Date, tolerance: Int)
    /// The signed payload is not a Stripe Event (not strict JSON, or not an `event` object as Stripe sends).
    case notAnEvent(DocumentError)

    /// Whether the refusal is about the timestamp rather than the signature itself.
    public var isTimestampRefusal: Bool {
        switch self {
        case .staleTimestamp, .futureTimestamp: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .missingHeader:
            "the request has no Stripe-Signature header"
        case .malformedHeader(let why):
            "the Stripe-Signature header is malformed: \(why)"
        case .noV1Signature:
            "the Stripe-Signature header has no v1 signature (other schemes are not accepted)"
        case .noMatchingSignature:
            "no v1 signature of the Stripe-Signature header matches the payload under a configured webhook secret"
        case .staleTimestamp(let signedAt, let receivedAt, let tolerance):
            "the Stripe-Signature timestamp \(RFC3339.string(from: signedAt)) is more than \(tolerance) s before "
                + "the instant received, \(RFC3339.string(from: receivedAt))"
        case .futureTimestamp(let signedAt, let receivedAt, let tolerance):
            "the Stripe-Signature timestamp \(RFC3339.string(from: signedAt)) is more than \(tolerance) s after "
                + "the instant received, \(RFC3339.string(from: receivedAt))"
        case .notAnEvent(let error):
            "the signed payload is not a Stripe event: \(error)"
        }
    }
}
