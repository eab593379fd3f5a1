/// An OBJECT IDENTIFIER's content bytes as dotted text (`1.2.840.10045.4.3.2`), so the OIDs the
/// verifier checks are written as the standards print them.
enum ObjectIdentifierText {
    /// The dotted text of `content`, or `nil` when it is not a well-formed OID (empty, an arc with a
    /// leading 0x80 byte, an arc cut short, or an arc too large for this reader).
    static func dotted(_ content: ArraySlice<UInt8>) -> String? {
        guard !content.isEmpty else { return nil }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var startsArc = true
        for byte in content {
            if startsArc && byte == 0x80 { return nil }
            guard value <= UInt64.max >> 7 else { return nil }
            value = value << 7 | UInt64(byte & 0x7F)
            startsArc = byte & 0x80 == 0
            if startsArc {
                arcs.append(value)
                value = 0
            }
        }
        guard startsArc, let first = arcs.first else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }
}

/// The OIDs the X.509 reader and the verifiers built on it check.
package enum VerificationOID {
    package static let ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
    package static let ecdsaWithSHA384 = "1.2.840.10045.4.3.3"
    package static let ecPublicKey = "1.2.840.10045.2.1"
    package static let prime256v1 = "1.2.840.10045.3.1.7"
    package static let secp384r1 = "1.3.132.0.34"
    package static let basicConstraints = "2.5.29.19"
    package static let keyUsage = "2.5.29.15"
    /// The critical extensions a certificate may carry and still be used: those the verifier processes
    /// (basic constraints, key usage). RFC 5280 §4.2 refuses a certificate with a critical extension its
    /// reader does not process, and Apple's library does: a critical extended key usage, certificate policies
    /// or key identifier limits what the certificate may be used for, so it is refused, not ignored.
    package static let understoodCritical: Set<String> = [basicConstraints, keyUsage]
}
