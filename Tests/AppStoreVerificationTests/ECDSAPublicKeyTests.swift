import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitCrypto
import Testing

/// The rules of `ECDSAPublicKey` one by one, on the deterministic signatures of RFC 6979 (A.2.5 and A.2.6,
/// message "sample"): the keys it accepts, the signature forms, and each refusal.
@Suite(.timeLimit(.minutes(5)))
struct ECDSAPublicKeyTests {
    struct Sample {
        let curve: ECDSACurve
        let x: String
        let y: String
        let r: [UInt8]
        let s: [UInt8]
        let digest: [UInt8]
        let order: [UInt8]
        let prime: [UInt8]

        var key: [UInt8] { hexBytes("04" + x + y) }
    }

    static let p256 = Sample(
        curve: .p256,
        x: "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
        y: "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
        r: hexBytes("efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"),
        s: hexBytes("f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
        digest: SHA256.digest(of: Array("sample".utf8)),
        order: hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
        prime: hexBytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
    )

    static let p384 = Sample(
        curve: .p384,
        x: "ec3a4e415b4e19a4568618029f427fa5da9a8bc4ae92e02e06aae5286b300c64def8f0ea9055866064a254515480bc13",
        y: "8015d9b72d7d57244ea8ef9ac0c621896708a59367f9dfb9f54ca84b3f1c9db1288b231c3ae0d4fe7344fd2533264720",
        r: hexBytes("94edbb92a5ecb8aad4736e56c691916b3f88140666ce9fa73d64c4ea95ad133c81a648152e44acf96e36dd1e80fabe46"),
        s: hexBytes("99ef4aeb15f178cea1fe40db2603138f130e740a19624526203b6351d0a3a94fa329c145786e679e7b82c71a38628ac8"),
        digest: SHA384.hash(Array("sample".utf8)),
        order: hexBytes(
            "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"),
        prime: hexBytes(
            "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff")
    )

    static let samples = [p256, p384]

    /// DER of (r, s) as a signer writes it: both values here have their top bit set, so each gets a zero byte.
    static func der(_ sample: Sample) -> [UInt8] {
        let integer = { (value: [UInt8]) in [0x02, UInt8(value.count + 1), 0x00] + value }
        let body = integer(sample.r) + integer(sample.s)
        return [0x30, UInt8(body.count)] + body
    }

    @Test(arguments: samples)
    func theRFC6979SignatureVerifiesInEveryForm(sample: Sample) throws {
        let key = try ECDSAPublicKey(curve: sample.curve, x963Representation: sample.key)
        #expect(key.isValidSignature(r: sample.r, s: sample.s, digest: sample.digest))
        #expect(key.isValidSignature(rawRepresentation: sample.r + sample.s, digest: sample.digest))
        #expect(key.isValidSignature(derEncoded: Self.der(sample), digest: sample.digest))
        #expect(key.isValidSignature(r: [0, 0] + sample.r, s: sample.s, digest: sample.digest), "leading zeros")
        #expect(key.x963Representation == sample.key)
    }

    @Test(arguments: samples)
    func anyChangeMakesItFail(sample: Sample) throws {
        let key = try ECDSAPublicKey(curve: sample.curve, x963Representation: sample.key)
        var digest = sample.digest
        digest[digest.count - 1] ^= 1
        #expect(!key.isValidSignature(r: sample.r, s: sample.s, digest: digest))
        #expect(!key.isValidSignature(r: sample.s, s: sample.r, digest: sample.digest))
        var r = sample.r
        r[0] ^= 0x80
        #expect(!key.isValidSignature(r: r, s: sample.s, digest: sample.digest))
        let other = try ECDSAPublicKey(
            curve: sample.curve, x963Representation: hexBytes("04" + sample.x) + Self.negated(sample))
        #expect(!other.isValidSignature(r: sample.r, s: sample.s, digest: sample.digest), "the key −Q")
    }

    /// −Q = (x, p − y): on the curve, so a valid key, but not the signer's.
    static func negated(_ sample: Sample) -> [UInt8] {
        let y = hexBytes(sample.y)
        var result = [UInt8](repeating: 0, count: y.count)
        var borrow = 0
        for index in (0..<y.count).reversed() {
            let difference = Int(sample.prime[index]) - Int(y[index]) - borrow
            result[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }

    /// ECDSA keeps the leftmost bits of a digest, as many as n has: what follows them does not count (a
    /// SHA-512 digest on P-256), and a shorter digest is taken whole.
    @Test(arguments: samples)
    func aDigestIsCutToTheBitLengthOfN(sample: Sample) throws {
        let key = try ECDSAPublicKey(curve: sample.curve, x963Representation: sample.key)
        let longer = sample.digest + [UInt8](repeating: 0xa5, count: 16)
        #expect(key.isValidSignature(r: sample.r, s: sample.s, digest: longer))
        #expect(!key.isValidSignature(r: sample.r, s: sample.s, digest: Array(sample.digest.dropLast())))
        #expect(!key.isValidSignature(r: sample.r, s: sample.s, digest: [0xa5] + sample.digest))
    }

    @Test(arguments: samples)
    func rAndSOutsideOneToNMinusOneAreRefused(sample: Sample) throws {
        let key = try ECDSAPublicKey(curve: sample.curve, x963Representation: sample.key)
        let digest = sample.digest
        #expect(!key.isValidSignature(r: [0], s: sample.s, digest: digest))
        #expect(!key.isValidSignature(r: sample.r, s: [], digest: digest))
        #expect(!key.isValidSignature(r: sample.order, s: sample.s, digest: digest))
        #expect(!key.isValidSignature(r: sample.r, s: sample.order, digest: digest))
        #expect(!key.isValidSignature(r: [1] + sample.r, s: sample.s, digest: digest), "r + 2^k")
        #expect(!key.isValidSignature(r: [UInt8](repeating: 0xff, count: 200), s: sample.s, digest: digest))
    }

    @Test(arguments: samples)
    func theRawFormHasExactlyTwoCoordinates(sample: Sample) throws {
        let key = try ECDSAPublicKey(curve: sample.curve, x963Representation: sample.key)
        let raw = sample.r + sample.s
        #expect(!key.isValidSignature(rawRepresentation: raw + [0], digest: sample.digest))
        #expect(!key.isValidSignature(rawRepresentation: [0] + raw, digest: sample.digest))
        #expect(!key.isValidSignature(rawRepresentation: Array(raw.dropLast()), digest: sample.digest))
    }

    @Test(arguments: samples)
    func derIsReadStrictly(sample: Sample) throws {
        let key = try ECDSAPublicKey(curve: sample.curve, x963Representation: sample.key)
        let der = Self.der(sample)
        let digest = sample.digest
        #expect(!key.isValidSignature(derEncoded: der + [0], digest: digest), "a trailing byte")
        #expect(!key.isValidSignature(derEncoded: [0x30, 0x81] + der.dropFirst(), digest: digest), "long length")
        #expect(!key.isValidSignature(derEncoded: [0x30, 0x80] + der.dropFirst(2) + [0, 0], digest: digest))
        var withoutSignByte = der
        withoutSignByte.remove(at: 4)  // r's zero byte: r now reads as negative
        withoutSignByte[3] -= 1
        withoutSignByte[1] -= 1
        #expect(!key.isValidSignature(derEncoded: withoutSignByte, digest: digest), "negative r")
        let r = [0x02, UInt8(sample.r.count + 2), 0x00, 0x00] + sample.r
        let s = [0x02, UInt8(sample.s.count + 1), 0x00] + sample.s
        #expect(!key.isValidSignature(derEncoded: [0x30, UInt8(r.count + s.count)] + r + s, digest: digest), "padded")
        var wrongTag = der
        wrongTag[2] = 0x03
        #expect(!key.isValidSignature(derEncoded: wrongTag, digest: digest))
        #expect(!key.isValidSignature(derEncoded: [], digest: digest))
        #expect(!key.isValidSignature(derEncoded: [0x30, 0x00], digest: digest))
    }

    @Test(arguments: samples)
    func keysMustBeUncompressedPointsOnTheCurve(sample: Sample) {
        let key = sample.key
        #expect(throws: ECDSAKeyError.notUncompressedPoint) {
            try ECDSAPublicKey(curve: sample.curve, x963Representation: [0x02] + hexBytes(sample.x))
        }
        #expect(throws: ECDSAKeyError.notUncompressedPoint) {
            try ECDSAPublicKey(curve: sample.curve, x963Representation: [0x00])
        }
        #expect(throws: ECDSAKeyError.notUncompressedPoint) {
            try ECDSAPublicKey(curve: sample.curve, x963Representation: key + [0])
        }
        #expect(throws: ECDSAKeyError.notUncompressedPoint) {
            try ECDSAPublicKey(curve: sample.curve == .p256 ? .p384 : .p256, x963Representation: key)
        }
        var offCurve = key
        offCurve[offCurve.count - 1] ^= 1
        #expect(throws: ECDSAKeyError.notOnCurve) {
            try ECDSAPublicKey(curve: sample.curve, x963Representation: offCurve)
        }
        #expect(throws: ECDSAKeyError.coordinateOutOfRange) {
            try ECDSAPublicKey(curve: sample.curve, x963Representation: [0x04] + sample.prime + hexBytes(sample.y))
        }
        #expect(throws: ECDSAKeyError.coordinateOutOfRange) {
            try ECDSAPublicKey(curve: sample.curve, x963Representation: [0x04] + hexBytes(sample.x) + sample.prime)
        }
    }
}

extension ECDSAPublicKeyTests.Sample: CustomTestStringConvertible {
    var testDescription: String { "\(curve)" }
}
