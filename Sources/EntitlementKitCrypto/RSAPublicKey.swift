/// An RSA public key that checks RSASSA-PKCS1-v1_5 signatures with SHA-256 (RFC 8017 §8.2.2; JWS's RS256,
/// RFC 7518 §3.3), for moduli of 2048 to 4096 bits. Verification only.
///
/// ```
/// let key = try RSAPublicKey(modulus: modulusBytes, publicExponent: [0x01, 0x00, 0x01])
/// let valid = key.isValidSignature(signature, sha256Digest: SHA256.digest(of: signedBytes))
/// ```
///
/// The check is strict: the signature is exactly the modulus's length and below it, and the recovered
/// encoding must equal, byte for byte, the one and only EMSA-PKCS1-v1_5 encoding of the digest
/// (`00 01 FF…FF 00`, SHA-256's DigestInfo, the digest). Nothing is parsed out of it, so no BER variant, no
/// missing NULL, no trailing garbage and no short padding is accepted.
public struct RSAPublicKey: Sendable {
    let modulus: RSAModulus
    /// The public exponent, big-endian, without leading zeros.
    let publicExponent: [UInt8]
    /// The modulus's length in bytes (k in RFC 8017): the length of every signature.
    public let modulusByteCount: Int

    /// A key from its modulus n and public exponent e, each big-endian (leading zero bytes allowed, as a
    /// DER `INTEGER` or a JWK's `n` may carry). n must be odd and 2048 to 4096 bits long; e odd, at least
    /// 3 and below n.
    public init(modulus: some Collection<UInt8>, publicExponent: some Collection<UInt8>) throws(RSAKeyError) {
        let n = Array(modulus.drop { $0 == 0 })
        let bits = n.first.map { 8 * n.count - $0.leadingZeroBitCount } ?? 0
        guard (2048...4096).contains(bits) else { throw .modulusSizeUnsupported(bits: bits) }
        guard n[n.count - 1] & 1 == 1 else { throw .modulusEven }
        let e = Array(publicExponent.drop { $0 == 0 })
        guard let last = e.last, last & 1 == 1, e.count > 1 || last >= 3,
            e.count < n.count || (e.count == n.count && Self.isBelow(e, n))
        else { throw .exponentUnusable }
        self.modulus = RSAModulus(bigEndian: n)
        self.publicExponent = e
        self.modulusByteCount = n.count
    }

    /// n, big-endian, without leading zeros.
    public var modulusBytes: [UInt8] { RSAModulus.bigEndianBytes(modulus.limbs, count: modulusByteCount) }

    /// e, big-endian, without leading zeros.
    public var publicExponentBytes: [UInt8] { publicExponent }

    /// Whether `signature` is an RSASSA-PKCS1-v1_5 signature with SHA-256 of the message whose SHA-256
    /// digest is `sha256Digest`.
    public func isValidSignature(_ signature: some Collection<UInt8>, sha256Digest: [UInt8]) -> Bool {
        guard sha256Digest.count == 32,
            let expected = Self.encoding(sha256Digest: sha256Digest, length: modulusByteCount),
            let recovered = recoveredEncoding(Array(signature))
        else { return false }
        return ConstantTimeComparison.isEqual(recovered, expected)
    }

    /// s^e mod n as k bytes, or nil when the signature is not k bytes or not below n (RFC 8017 §8.2.2
    /// steps 1 and 2a).
    private func recoveredEncoding(_ signature: [UInt8]) -> [UInt8]? {
        guard signature.count == modulusByteCount else { return nil }
        let s = RSAModulus.limbs(bigEndian: signature, count: modulus.limbCount)
        guard RSAModulus.isLess(s, modulus.limbs) else { return nil }
        return RSAModulus.bigEndianBytes(modulus.power(s, exponent: publicExponent), count: modulusByteCount)
    }

    /// The DER DigestInfo prefix of SHA-256 (RFC 8017 §9.2 note 1): `SEQUENCE { SEQUENCE { OID 2.16.840.1.101.
    /// 3.4.2.1, NULL }, OCTET STRING (32) }`.
    static let sha256DigestInfoPrefix: [UInt8] = [
        0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
        0x04, 0x20,
    ]

    /// EMSA-PKCS1-v1_5 (RFC 8017 §9.2): `00 01 FF…FF 00 ‖ DigestInfo`, `length` bytes, at least eight FF.
    package static func encoding(sha256Digest: [UInt8], length: Int) -> [UInt8]? {
        let digestInfo = sha256DigestInfoPrefix + sha256Digest
        let paddingLength = length - digestInfo.count - 3
        guard paddingLength >= 8 else { return nil }
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: paddingLength) + [0x00] + digestInfo
    }

    /// EM^d mod n as k bytes for an encoded message `encodedMessage` (k bytes, below n) and the private
    /// exponent `d`: a signature, for the test kit's simulated pushes and the differential fuzz target only.
    /// Nothing in the library signs, and the exponentiation is a plain left-to-right one, not hardened for
    /// secrets in production.
    package func testSignature(encodedMessage: [UInt8], privateExponent: [UInt8]) -> [UInt8]? {
        guard encodedMessage.count == modulusByteCount else { return nil }
        let m = RSAModulus.limbs(bigEndian: encodedMessage, count: modulus.limbCount)
        guard RSAModulus.isLess(m, modulus.limbs) else { return nil }
        return RSAModulus.bigEndianBytes(modulus.power(m, exponent: privateExponent), count: modulusByteCount)
    }

    /// An RSASSA-PKCS1-v1_5 signature with SHA-256 of the message whose digest is `sha256Digest`, by the
    /// private exponent `d` (see ``testSignature(encodedMessage:privateExponent:)``).
    package func testSignature(sha256Digest: [UInt8], privateExponent: [UInt8]) -> [UInt8]? {
        guard sha256Digest.count == 32,
            let encoded = Self.encoding(sha256Digest: sha256Digest, length: modulusByteCount)
        else { return nil }
        return testSignature(encodedMessage: encoded, privateExponent: privateExponent)
    }

    /// Whether big-endian `left` < `right`, equal lengths, no leading zeros.
    private static func isBelow(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        for (a, b) in zip(left, right) where a != b { return a < b }
        return false
    }
}
