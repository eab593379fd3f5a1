/// A `Stripe-Signature` header read as stripe-mapping.md says: split on `,`, each element split at its first
/// `=` (no trimming, elements without `=` ignored); exactly one `t` of 1–12 ASCII digits; every `v1` value a
/// candidate signature. Other schemes (`v0`, …) are ignored, so a header cannot talk the check down.
struct StripeSignatureHeader: Sendable, Hashable {
    /// The timestamp `t`, in seconds since 1970.
    var timestamp: Int64
    /// Every `v1` value, in order.
    var signatures: [[UInt8]]

    init(_ header: String) throws(StripeWebhookError) {
        guard !header.isEmpty else { throw .missingHeader }
        var timestamps: [Substring.UTF8View] = []
        var signatures: [[UInt8]] = []
        for element in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let equals = element.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = element[..<equals]
            let value = element[element.index(after: equals)...]
            if key.elementsEqual("t".utf8) {
                timestamps.append(Substring(value).utf8)
            } else if key.elementsEqual("v1".utf8) {
                signatures.append(Array(value))
            }
        }
        guard timestamps.count == 1, let digits = timestamps.first else {
            throw .malformedHeader(
                timestamps.isEmpty ? "it has no timestamp t" : "it has \(timestamps.count) timestamps t, not one")
        }
        guard (1...12).contains(digits.count), digits.allSatisfy({ (48...57).contains($0) }) else {
            throw .malformedHeader("its timestamp t is not 1 to 12 ASCII digits")
        }
        guard !signatures.isEmpty else { throw .noV1Signature }
        timestamp = digits.reduce(0) { $0 * 10 + Int64($1 - 48) }
        self.signatures = signatures
    }
}
