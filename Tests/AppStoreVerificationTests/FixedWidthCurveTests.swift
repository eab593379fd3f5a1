import Testing

@testable import CryptoOracles
@testable import EntitlementKitCrypto

/// The fixed-width P-256/P-384 arithmetic at the edges of its sums, against the generic oracle: the
/// interleaved NAF loop adding a point to itself (P = Q, a doubling) or to its negation (P = −Q, infinity),
/// a scalar of zero on either side, sums at infinity, and the binary inverse modulo n.
@Suite(.timeLimit(.minutes(5)))
struct FixedWidthCurveTests {
    /// u1·G + u2·(d·G) by the fixed-width loop, as `0x04‖X‖Y`, or nil at infinity.
    static func combination<Curve: FixedWidthCurve>(
        _: Curve.Type, _ curve: ECDSACurve, u1: WideInteger, u2: WideInteger, privateKey d: WideInteger
    ) throws -> [UInt8]? {
        let size = curve.coordinateByteCount
        let keyBytes = try #require(ECDSAOracle.generatorMultiple(curve: curve, scalar: d.bigEndianBytes(count: size)))
        let key = try ECDSAPublicKey(curve: curve, x963Representation: keyBytes)
        #expect(key.x963Representation == keyBytes)
        let x = try #require(WideInteger(bigEndian: keyBytes[1...size]))
        let y = try #require(WideInteger(bigEndian: keyBytes[(1 + size)...]))
        let point = CurvePoint(
            x: Curve.Field.entering(Curve.Field(plain: x)), y: Curve.Field.entering(Curve.Field(plain: y)))
        let table = Curve.oddMultiples(of: point, window: keyWindow)
        let sum = Curve.linearCombination(u1: u1, u2: u2, keyTable: table)
        if sum.isInfinity { return nil }
        let zInverse = sum.z.inverse
        let zInverseSquared = zInverse * zInverse
        let affineX = (sum.x * zInverseSquared).leaving.wide
        let affineY = (sum.y * zInverseSquared * zInverse).leaving.wide
        return [0x04] + affineX.bigEndianBytes(count: size) + affineY.bigEndianBytes(count: size)
    }

    /// k·G by the oracle.
    static func multiple(_ curve: ECDSACurve, _ k: WideInteger) -> [UInt8]? {
        ECDSAOracle.generatorMultiple(curve: curve, scalar: k.bigEndianBytes(count: curve.coordinateByteCount))
    }

    static func minus(_ value: UInt64, from n: WideInteger) -> WideInteger {
        var result = n
        result.subtract(WideInteger(value))
        return result
    }

    static func check<Curve: FixedWidthCurve>(_ type: Curve.Type, _ curve: ECDSACurve) throws {
        let n = Curve.Scalar.modulus.wide
        let one = WideInteger(1)
        let small = { (value: UInt64) in WideInteger(value) }
        // Q = G: the two tables hold the same points, so the loop adds a point to itself.
        #expect(try combination(type, curve, u1: one, u2: one, privateKey: one) == multiple(curve, small(2)))
        #expect(
            try combination(type, curve, u1: small(21), u2: small(21), privateKey: one) == multiple(curve, small(42)))
        // P = −Q: G + (n − 1)·G and k·G + (n − k)·G are infinity.
        #expect(try combination(type, curve, u1: one, u2: minus(1, from: n), privateKey: one) == nil)
        #expect(try combination(type, curve, u1: small(77), u2: minus(77, from: n), privateKey: one) == nil)
        // Q = −G: 5·G + 5·(−G) is infinity, 5·G + 3·(−G) is 2·G.
        let minusOne = minus(1, from: n)
        #expect(try combination(type, curve, u1: small(5), u2: small(5), privateKey: minusOne) == nil)
        #expect(
            try combination(type, curve, u1: small(5), u2: small(3), privateKey: minusOne) == multiple(curve, small(2)))
        // u1 = 0, u2 = 0, both.
        #expect(
            try combination(type, curve, u1: WideInteger(), u2: small(5), privateKey: small(7))
                == multiple(curve, small(35)))
        #expect(
            try combination(type, curve, u1: small(9), u2: WideInteger(), privateKey: small(7))
                == multiple(curve, small(9)))
        #expect(try combination(type, curve, u1: WideInteger(), u2: WideInteger(), privateKey: small(7)) == nil)
        // Large scalars on both sides: (n − 1)·G + (n − 2)·(2·G) = −G − 4·G = −5·G = (n − 5)·G.
        #expect(
            try combination(type, curve, u1: minusOne, u2: minus(2, from: n), privateKey: small(2))
                == multiple(curve, minus(5, from: n)))
        // The inverse modulo n and modulo p: value · value⁻¹ = 1 (both in Montgomery form, so the product
        // is 1 in Montgomery form).
        for value in [one, small(2), small(0xdead_beef), minusOne, minus(12345, from: n)] {
            let scalar = Curve.Scalar.entering(Curve.Scalar(plain: value))
            #expect(scalar * scalar.inverse == Curve.Scalar.one)
            let element = Curve.Field.entering(Curve.Field(plain: value))
            #expect(element * element.inverse == Curve.Field.one)
        }
    }

    @Test func p256SumsMeetThemselvesTheirNegationsAndInfinity() throws {
        try Self.check(P256.self, .p256)
    }

    @Test func p384SumsMeetThemselvesTheirNegationsAndInfinity() throws {
        try Self.check(P384.self, .p384)
    }

    /// Signatures the oracle makes verify with both implementations, including a zero digest (u1 = 0) and a
    /// digest equal to n (e ≡ 0); one changed byte fails both.
    @Test(arguments: [ECDSACurve.p256, .p384])
    func oracleSignaturesVerifyIncludingAZeroDigest(curve: ECDSACurve) throws {
        let size = curve.coordinateByteCount
        let n = curve == .p256 ? P256.Scalar.modulus.wide : P384.Scalar.modulus.wide
        let digests: [[UInt8]] = [
            [UInt8](repeating: 0, count: size), n.bigEndianBytes(count: size), [UInt8](repeating: 0xff, count: size),
            (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) },
        ]
        for (index, digest) in digests.enumerated() {
            let privateKey = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index) }
            let nonce = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3 &+ index) }
            let keyBytes = try #require(ECDSAOracle.generatorMultiple(curve: curve, scalar: privateKey))
            let key = try ECDSAPublicKey(curve: curve, x963Representation: keyBytes)
            let (r, s) = try #require(
                ECDSAOracle.testSignature(curve: curve, privateKey: privateKey, nonce: nonce, digest: digest))
            #expect(key.isValidSignature(r: r, s: s, digest: digest))
            #expect(
                ECDSAOracle.isValidSignature(curve: curve, x963Representation: keyBytes, r: r, s: s, digest: digest)
                    == true)
            var altered = s
            altered[size - 1] ^= 1
            #expect(!key.isValidSignature(r: r, s: altered, digest: digest))
            #expect(
                ECDSAOracle.isValidSignature(
                    curve: curve, x963Representation: keyBytes, r: r, s: altered, digest: digest)
                    == false)
        }
    }
}
