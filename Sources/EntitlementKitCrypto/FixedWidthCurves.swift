/// P-256 (secp256r1) with four-limb arithmetic; constants from SEC 2 v2 §2.4.2 (FIPS 186-4 D.1.2.3).
enum P256: FixedWidthCurve {
    typealias Field = P256FieldElement
    typealias Scalar = P256ScalarElement

    static let b = Field.entering(
        Field(plain: WideInteger(hex: "5ac635d8 aa3a93e7 b3ebbd55 769886bc 651d06b0 cc53b0f6 3bce3c3e 27d2604b")))
    static let generator = CurvePoint(
        x: Field.entering(
            Field(plain: WideInteger(hex: "6b17d1f2 e12c4247 f8bce6e5 63a440f2 77037d81 2deb33a0 f4a13945 d898c296"))),
        y: Field.entering(
            Field(plain: WideInteger(hex: "4fe342e2 fe1a7f9b 8ee7eb4a 7c0f9e16 2bce3357 6b315ece cbb64068 37bf51f5"))))
    static let generatorTable = oddMultiples(of: generator, window: generatorWindow)
}

/// P-384 (secp384r1) with six-limb arithmetic; constants from SEC 2 v2 §2.5.1 (FIPS 186-4 D.1.2.4).
enum P384: FixedWidthCurve {
    typealias Field = P384FieldElement
    typealias Scalar = P384ScalarElement

    static let b = Field.entering(
        Field(
            plain: WideInteger(
                hex:
                    "b3312fa7 e23ee7e4 988e056b e3f82d19 181d9c6e fe814112 0314088f 5013875a c656398d 8a2ed19d 2a85c8ed d3ec2aef"
            )))
    static let generator = CurvePoint(
        x: Field.entering(
            Field(
                plain: WideInteger(
                    hex:
                        "aa87ca22 be8b0537 8eb1c71e f320ad74 6e1d3b62 8ba79b98 59f741e0 82542a38 5502f25d bf55296c 3a545e38 72760ab7"
                ))),
        y: Field.entering(
            Field(
                plain: WideInteger(
                    hex:
                        "3617de4a 96262c6f 5d9e98bf 9292dc29 f8f41dbd 289a147c e9da3113 b5f0b8c0 0a60b1ce 1d7e819d 7a431d7c 90ea0e5f"
                ))))
    static let generatorTable = oddMultiples(of: generator, window: generatorWindow)
}
