/// An ECDSA public key on P-256 or P-384 that checks signatures (FIPS 186-5 §6.4.2; SEC 1 §4.1.4).
/// Verification only: this package never signs, so no secret ever reaches this code and none of it needs
/// to be constant-time.
///
/// ```
/// let key = try ECDSAPublicKey(curve: .p256, x963Representation: pointBytes)
/// let valid = key.isValidSignature(rawRepresentation: signature, digest: sha256OfSignedBytes)
/// ```
public struct ECDSAPublicKey: Sendable {
    /// The curve the key lies on.
    public let curve: ECDSACurve
    private let point: AffinePoint
    /// G + Q, computed once per key so each verification adds it instead of building it; nil for infinity.
    private let generatorPlusPoint: AffinePoint?

    /// A key from its uncompressed encoding `0x04‖X‖Y` (SEC 1 §2.3.3), each coordinate the curve's length.
    /// The point is checked to lie on the curve (with a cofactor of 1 that also puts it in the group), so a
    /// forged "invalid curve" key is refused here.
    public init(curve: ECDSACurve, x963Representation: some Collection<UInt8>) throws(ECDSAKeyError) {
        let bytes = Array(x963Representation)
        let size = curve.coordinateByteCount
        guard bytes.count == 1 + 2 * size, bytes[0] == 0x04 else { throw .notUncompressedPoint }
        let parameters = curve.parameters
        let field = parameters.field
        guard let x = WideInteger(bigEndian: bytes[1...size]), let y = WideInteger(bigEndian: bytes[(1 + size)...]),
            x < field.modulus, y < field.modulus
        else { throw .coordinateOutOfRange }
        let point = AffinePoint(x: field.enter(x), y: field.enter(y))
        guard parameters.contains(point) else { throw .notOnCurve }
        self.curve = curve
        self.point = point
        generatorPlusPoint = parameters.affine(parameters.add(parameters.lift(point), parameters.generator))
    }

    /// The key as `0x04‖X‖Y`.
    public var x963Representation: [UInt8] {
        let parameters = curve.parameters
        let size = curve.coordinateByteCount
        return [0x04] + parameters.field.leave(point.x).bigEndianBytes(count: size)
            + parameters.field.leave(point.y).bigEndianBytes(count: size)
    }

    /// Whether (r, s) — big-endian magnitudes, leading zeros allowed — is a valid signature of `digest` by
    /// this key. r and s must lie in [1, n − 1]. The digest is cut to the bit length of n, as ECDSA
    /// specifies, so SHA-512 may sign on P-256 and SHA-256 on P-384.
    public func isValidSignature(r: [UInt8], s: [UInt8], digest: [UInt8]) -> Bool {
        isValidSignature(r: r[...], s: s[...], digest: digest)
    }

    /// Whether `derEncoded` is a valid signature of `digest`, DER read strictly (`SEQUENCE` of two minimal,
    /// non-negative `INTEGER`s and nothing after it), as X.509 certificates carry them.
    public func isValidSignature(derEncoded: [UInt8], digest: [UInt8]) -> Bool {
        guard let (r, s) = ECDSASignatureDER.integers(of: derEncoded) else { return false }
        return isValidSignature(r: r, s: s, digest: digest)
    }

    /// Whether `rawRepresentation` — r‖s, each exactly the curve's coordinate length (IEEE P1363; JWS's
    /// ES256 form, RFC 7518 §3.4) — is a valid signature of `digest`.
    public func isValidSignature(rawRepresentation: [UInt8], digest: [UInt8]) -> Bool {
        let size = curve.coordinateByteCount
        guard rawRepresentation.count == 2 * size else { return false }
        return isValidSignature(
            r: rawRepresentation[..<size], s: rawRepresentation[size...], digest: digest)
    }

    private func isValidSignature(r: ArraySlice<UInt8>, s: ArraySlice<UInt8>, digest: [UInt8]) -> Bool {
        let parameters = curve.parameters
        let order = parameters.order
        guard let r = WideInteger(bigEndian: r), let s = WideInteger(bigEndian: s),
            !r.isZero, r < order.modulus, !s.isZero, s < order.modulus
        else { return false }
        // e: the leftmost bits of the digest, as many as n has (whole bytes for both curves), reduced mod n
        // (it is below 2n, so one subtraction does).
        guard var e = WideInteger(bigEndian: digest.prefix(parameters.orderBitLength / 8)) else { return false }
        if !(e < order.modulus) { e.subtract(order.modulus) }

        let w = order.inverse(order.enter(s))
        let u1 = order.leave(order.multiply(order.enter(e), w))
        let u2 = order.leave(order.multiply(order.enter(r), w))
        let sum = parameters.linearCombination(u1, u2, q: point, generatorPlusQ: generatorPlusPoint)
        if sum.isInfinity { return false }
        // x mod n = r, where x = X/Z² is below p < 2n: x is r or r + n. Comparing X with r·Z² (and (r + n)·Z²
        // when that is below p) needs no field inversion. Montgomery forms are fully reduced, so equal
        // values compare equal.
        let field = parameters.field
        let zSquared = field.square(sum.z)
        if field.multiply(field.enter(r), zSquared) == sum.x { return true }
        var rPlusN = r
        guard !rPlusN.add(order.modulus), rPlusN < field.modulus else { return false }
        return field.multiply(field.enter(rPlusN), zSquared) == sum.x
    }
}
