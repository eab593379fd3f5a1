/// An ECDSA public key on P-256 or P-384 that checks signatures (FIPS 186-5 §6.4.2; SEC 1 §4.1.4).
/// Verification only: this package never signs, so no secret ever reaches this code and none of it needs
/// to be constant-time.
///
/// ```
/// let key = try ECDSAPublicKey(curve: .p256, x963Representation: pointBytes)
/// let valid = key.isValidSignature(rawRepresentation: signature, digest: sha256OfSignedBytes)
/// ```
///
/// A key holds its point's small odd multiples, computed once when it is made, so a key kept (as the App
/// Store verifier keeps a verified chain's leaf) verifies each signature with no table to build.
public struct ECDSAPublicKey: Sendable {
    /// The curve the key lies on.
    public let curve: ECDSACurve
    private let table: OddMultiples

    /// Q, 3Q, …, affine: the key's side of u1·G + u2·Q.
    private enum OddMultiples: Sendable {
        case p256([CurvePoint<P256FieldElement>])
        case p384([CurvePoint<P384FieldElement>])
    }

    /// A key from its uncompressed encoding `0x04‖X‖Y` (SEC 1 §2.3.3), each coordinate the curve's length.
    /// The point is checked to lie on the curve (with a cofactor of 1 that also puts it in the group), so a
    /// forged "invalid curve" key is refused here.
    public init(curve: ECDSACurve, x963Representation: some Collection<UInt8>) throws(ECDSAKeyError) {
        let bytes = Array(x963Representation)
        let size = curve.coordinateByteCount
        guard bytes.count == 1 + 2 * size, bytes[0] == 0x04 else { throw .notUncompressedPoint }
        guard let x = WideInteger(bigEndian: bytes[1...size]), let y = WideInteger(bigEndian: bytes[(1 + size)...])
        else { throw .coordinateOutOfRange }
        self.curve = curve
        switch curve {
        case .p256: table = .p256(try Self.oddMultiples(P256.self, x, y))
        case .p384: table = .p384(try Self.oddMultiples(P384.self, x, y))
        }
    }

    private static func oddMultiples<Curve: FixedWidthCurve>(
        _: Curve.Type, _ x: WideInteger, _ y: WideInteger
    ) throws(ECDSAKeyError) -> [CurvePoint<Curve.Field>] {
        let p = Curve.Field.modulus.wide
        guard x < p, y < p else { throw .coordinateOutOfRange }
        let point = CurvePoint(
            x: Curve.Field.entering(Curve.Field(plain: x)), y: Curve.Field.entering(Curve.Field(plain: y)))
        guard Curve.contains(point) else { throw .notOnCurve }
        return Curve.oddMultiples(of: point, window: keyWindow)
    }

    /// The key as `0x04‖X‖Y`.
    public var x963Representation: [UInt8] {
        let size = curve.coordinateByteCount
        let (x, y): (WideInteger, WideInteger) =
            switch table {
            case .p256(let points): (points[0].x.leaving.wide, points[0].y.leaving.wide)
            case .p384(let points): (points[0].x.leaving.wide, points[0].y.leaving.wide)
            }
        return [0x04] + x.bigEndianBytes(count: size) + y.bigEndianBytes(count: size)
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
        return isValidSignature(r: rawRepresentation[..<size], s: rawRepresentation[size...], digest: digest)
    }

    private func isValidSignature(r: ArraySlice<UInt8>, s: ArraySlice<UInt8>, digest: [UInt8]) -> Bool {
        guard let r = WideInteger(bigEndian: r), let s = WideInteger(bigEndian: s) else { return false }
        switch table {
        case .p256(let points): return P256.isValidSignature(r: r, s: s, digest: digest[...], keyTable: points)
        case .p384(let points): return P384.isValidSignature(r: r, s: s, digest: digest[...], keyTable: points)
        }
    }
}
