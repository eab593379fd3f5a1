import EntitlementKitCrypto

/// The oracle's curves (see `ECDSAOracle`; production code uses `FixedWidthCurve`). A short-Weierstrass
/// curve y² = x³ − 3x + b over a prime field with a prime group order n (cofactor 1,
/// as both NIST curves here), its base point G, and the two Montgomery fields its arithmetic runs in.
/// The constants are those of SEC 2 v2 §2.4.2 and §2.5.1 (FIPS 186-4 D.1.2.3 and D.1.2.4).
struct EllipticCurve: Sendable {
    /// Arithmetic modulo the field prime p.
    let field: MontgomeryField
    /// Arithmetic modulo the group order n.
    let order: MontgomeryField
    /// b in Montgomery form.
    let b: WideInteger
    /// G, with coordinates in Montgomery form.
    let generator: AffinePoint
    /// The bit length of n (a multiple of eight for both curves): a digest is truncated to it.
    let orderBitLength: Int
    let coordinateByteCount: Int

    private init(p: String, n: String, b: String, gx: String, gy: String, limbCount: Int) {
        field = MontgomeryField(modulus: WideInteger(hex: p), limbCount: limbCount)
        order = MontgomeryField(modulus: WideInteger(hex: n), limbCount: limbCount)
        self.b = field.enter(WideInteger(hex: b))
        generator = AffinePoint(x: field.enter(WideInteger(hex: gx)), y: field.enter(WideInteger(hex: gy)))
        orderBitLength = 64 * limbCount
        coordinateByteCount = 8 * limbCount
    }

    static let p256 = EllipticCurve(
        p: "ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff",
        n: "ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551",
        b: "5ac635d8 aa3a93e7 b3ebbd55 769886bc 651d06b0 cc53b0f6 3bce3c3e 27d2604b",
        gx: "6b17d1f2 e12c4247 f8bce6e5 63a440f2 77037d81 2deb33a0 f4a13945 d898c296",
        gy: "4fe342e2 fe1a7f9b 8ee7eb4a 7c0f9e16 2bce3357 6b315ece cbb64068 37bf51f5",
        limbCount: 4
    )

    static let p384 = EllipticCurve(
        p:
            "ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff fffffffe ffffffff 00000000 00000000 ffffffff",
        n:
            "ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff c7634d81 f4372ddf 581a0db2 48b0a77a ecec196a ccc52973",
        b:
            "b3312fa7 e23ee7e4 988e056b e3f82d19 181d9c6e fe814112 0314088f 5013875a c656398d 8a2ed19d 2a85c8ed d3ec2aef",
        gx:
            "aa87ca22 be8b0537 8eb1c71e f320ad74 6e1d3b62 8ba79b98 59f741e0 82542a38 5502f25d bf55296c 3a545e38 72760ab7",
        gy:
            "3617de4a 96262c6f 5d9e98bf 9292dc29 f8f41dbd 289a147c e9da3113 b5f0b8c0 0a60b1ce 1d7e819d 7a431d7c 90ea0e5f",
        limbCount: 6
    )

    /// Whether (x, y), in Montgomery form, satisfies y² = x³ − 3x + b.
    func contains(_ point: AffinePoint) -> Bool {
        let x = point.x
        let xCubed = field.multiply(field.square(x), x)
        let threeX = field.add(field.add(x, x), x)
        let right = field.add(field.subtract(xCubed, threeX), b)
        return field.square(point.y) == right
    }
}

/// A point given by its two coordinates (Montgomery form); never the point at infinity.
struct AffinePoint: Sendable, Equatable {
    var x: WideInteger
    var y: WideInteger
}

extension ECDSACurve {
    var parameters: EllipticCurve {
        switch self {
        case .p256: EllipticCurve.p256
        case .p384: EllipticCurve.p384
        }
    }
}
