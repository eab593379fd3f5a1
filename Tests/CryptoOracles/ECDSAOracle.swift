import EntitlementKitCrypto

/// The first, generic implementation of ECDSA verification (one Montgomery reduction for every modulus,
/// a bit-by-bit Shamir ladder), kept only as a yardstick: the tests and the `ecdsa-differential` fuzz
/// target hold ``ECDSAPublicKey``'s fixed-width arithmetic to its answers. Production code never calls it.
package enum ECDSAOracle {
    /// The oracle's verdict on (r, s) — big-endian magnitudes — over `digest` under the key `0x04‖X‖Y`; nil
    /// when the key is not a point of the curve.
    package static func isValidSignature(
        curve: ECDSACurve, x963Representation key: [UInt8], r: [UInt8], s: [UInt8], digest: [UInt8]
    ) -> Bool? {
        let parameters = curve.parameters
        let size = curve.coordinateByteCount
        let field = parameters.field
        guard key.count == 1 + 2 * size, key[0] == 0x04, let x = WideInteger(bigEndian: key[1...size]),
            let y = WideInteger(bigEndian: key[(1 + size)...]), x < field.modulus, y < field.modulus
        else { return nil }
        let point = AffinePoint(x: field.enter(x), y: field.enter(y))
        guard parameters.contains(point) else { return nil }
        let generatorPlusPoint = parameters.affine(parameters.add(parameters.lift(point), parameters.generator))
        let order = parameters.order
        guard let r = WideInteger(bigEndian: r), let s = WideInteger(bigEndian: s),
            !r.isZero, r < order.modulus, !s.isZero, s < order.modulus
        else { return false }
        guard var e = WideInteger(bigEndian: digest.prefix(parameters.orderBitLength / 8)) else { return false }
        if !(e < order.modulus) { e.subtract(order.modulus) }
        let w = order.inverse(order.enter(s))
        let u1 = order.leave(order.multiply(order.enter(e), w))
        let u2 = order.leave(order.multiply(order.enter(r), w))
        let sum = parameters.linearCombination(u1, u2, q: point, generatorPlusQ: generatorPlusPoint)
        guard let affine = parameters.affine(sum) else { return false }
        // The oracle takes the plain road: x mod n, with one inversion, compared with r.
        var x1 = field.leave(affine.x)
        if !(x1 < order.modulus) { x1.subtract(order.modulus) }
        return x1 == r
    }

    /// scalar·G as `0x04‖X‖Y`, nil at infinity (a scalar of 0 or n): test keys and nonces.
    package static func generatorMultiple(curve: ECDSACurve, scalar: [UInt8]) -> [UInt8]? {
        let parameters = curve.parameters
        guard let k = WideInteger(bigEndian: scalar), k < parameters.order.modulus else { return nil }
        let product = parameters.linearCombination(k, WideInteger(), q: parameters.generator, generatorPlusQ: nil)
        guard let point = parameters.affine(product) else { return nil }
        let size = curve.coordinateByteCount
        return [0x04] + parameters.field.leave(point.x).bigEndianBytes(count: size)
            + parameters.field.leave(point.y).bigEndianBytes(count: size)
    }

    /// An ECDSA signature (r, s) of `digest` by the private key `privateKey` with nonce `nonce`, both below n,
    /// or nil when r or s comes out zero. Only the tests and the differential fuzz target use it, to make
    /// signatures that must verify: the library never signs, and nothing here is constant-time.
    package static func testSignature(
        curve: ECDSACurve, privateKey: [UInt8], nonce: [UInt8], digest: [UInt8]
    ) -> (r: [UInt8], s: [UInt8])? {
        let parameters = curve.parameters
        let order = parameters.order
        let size = curve.coordinateByteCount
        guard let d = WideInteger(bigEndian: privateKey), d < order.modulus, !d.isZero,
            let k = WideInteger(bigEndian: nonce), k < order.modulus, !k.isZero,
            let point = generatorMultiple(curve: curve, scalar: nonce),
            var r = WideInteger(bigEndian: point[1...size]),
            var e = WideInteger(bigEndian: digest.prefix(parameters.orderBitLength / 8))
        else { return nil }
        if !(r < order.modulus) { r.subtract(order.modulus) }
        if !(e < order.modulus) { e.subtract(order.modulus) }
        // s = k⁻¹ (e + r·d) mod n, in Montgomery form throughout.
        let sum = order.add(order.enter(e), order.multiply(order.enter(r), order.enter(d)))
        let s = order.leave(order.multiply(order.inverse(order.enter(k)), sum))
        guard !r.isZero, !s.isZero else { return nil }
        return (r.bigEndianBytes(count: size), s.bigEndianBytes(count: size))
    }
}
