// fuzz-modules: EntitlementKitStripe
// fuzz-seeds: Fixtures/stripe
import EntitlementKit
import EntitlementKitCrypto
import EntitlementKitLedger
import EntitlementKitStripe
import Foundation

let webhookSecret = "whsec_fuzz_0123456789"
let webhookSource = StripeLedgerSource(webhookSecrets: [webhookSecret])

/// The lower-case hex HMAC-SHA256 Stripe would send for `payload` signed at `timestamp`.
func stripeSignature(_ payload: [UInt8], at timestamp: Int64) -> String {
    let code = HMACSHA256.authenticationCode(
        for: Array("\(timestamp).".utf8) + payload, key: Array(webhookSecret.utf8))
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: code.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
}

/// A `Stripe-Signature` header and a webhook body. An input whose first line starts with `t=` or `v1=` is
/// that header, the rest the body: the header parser and the comparison are fuzzed, and whatever verifies
/// must carry the right signature. Any other input is a body signed correctly here, so the event reader
/// and the ledger source behind the signature are reached: it must verify (or be refused only as not an
/// event), and a changed timestamp, body or secret must not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStripeWebhook(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let received = fuzzInstant
    let now = Int64(received.timeIntervalSince1970)
    let verifier = StripeWebhookVerifier(secrets: [webhookSecret])
    let header: String
    let payload: [UInt8]
    let selfSigned: Bool
    if input.starts(with: Array("t=".utf8)) || input.starts(with: Array("v1=".utf8)) {
        let end = input.firstIndex(of: 0x0A) ?? input.endIndex
        header = String(decoding: input[..<end], as: UTF8.self)
        payload = Array(input[min(end + 1, input.endIndex)...])
        selfSigned = false
    } else {
        payload = input
        header = "t=\(now),v0=00,v1=\(stripeSignature(payload, at: now))"
        selfSigned = true
    }

    do {
        let event = try verifier.verify(payload: payload, signatureHeader: header, at: received)
        if event.id.isEmpty { fatalError("a verified event without an id") }
    } catch {
        checkLine(error.description)
        if selfSigned, case .notAnEvent = error {
        } else if selfSigned {
            fatalError("a correctly signed body was refused: \(error)")
        }
    }
    if selfSigned {
        // Each changed part fails the signature, never the event reader.
        let changed = [
            ("t=\(now + 1),v1=\(stripeSignature(payload, at: now))", payload),
            ("t=\(now),v1=\(stripeSignature(payload, at: now))", payload + [0x20]),
            ("t=\(now),v0=\(stripeSignature(payload, at: now))", payload),
        ]
        for (header, body) in changed {
            do {
                _ = try verifier.verify(payload: body, signatureHeader: header, at: received)
                fatalError("a changed header or body verified: \(header)")
            } catch {
                switch error {
                case .noMatchingSignature, .noV1Signature: break
                default: fatalError("a changed signature was refused as \(error)")
                }
            }
        }
    }
    exerciseLedgerSource(webhookSource) { source throws(LedgerRefusal) in
        try source.read(
            LedgerNotification(
                source: .stripe, body: Data(payload), headers: ["Stripe-Signature": header], receivedAt: received))
    }
    return 0
}

/// A refusal is one line of bounded length.
func checkLine(_ text: String) {
    if text.utf8.count > maximumErrorDescriptionBytes || text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
        fatalError("refusal is not one bounded line: \(text.prefix(200).debugDescription)")
    }
}
