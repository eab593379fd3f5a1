import EntitlementKitCrypto

/// A point in Jacobian coordinates (X : Y : Z) standing for (X/Z², Y/Z³), coordinates in Montgomery form;
/// Z = 0 is the point at infinity. Adding and doubling need no field inversion this way.
struct JacobianPoint: Sendable {
    var x: WideInteger
    var y: WideInteger
    var z: WideInteger

    var isInfinity: Bool { z.isZero }

    static let infinity = JacobianPoint(x: WideInteger(), y: WideInteger(), z: WideInteger())
}

extension EllipticCurve {
    func lift(_ point: AffinePoint) -> JacobianPoint { JacobianPoint(x: point.x, y: point.y, z: field.one) }

    /// 2·point, with the a = −3 shortcut ("dbl-2001-b" in the Explicit-Formulas Database).
    func double(_ point: JacobianPoint) -> JacobianPoint {
        if point.isInfinity { return point }
        let f = field
        let delta = f.square(point.z)
        let gamma = f.square(point.y)
        let beta = f.multiply(point.x, gamma)
        let product = f.multiply(f.subtract(point.x, delta), f.add(point.x, delta))
        let alpha = f.add(f.add(product, product), product)
        let fourBeta = f.add(f.add(beta, beta), f.add(beta, beta))
        let x = f.subtract(f.square(alpha), f.add(fourBeta, fourBeta))
        let z = f.subtract(f.subtract(f.square(f.add(point.y, point.z)), gamma), delta)
        let gammaSquared = f.square(gamma)
        let twoGammaSquared = f.add(gammaSquared, gammaSquared)
        let fourGammaSquared = f.add(twoGammaSquared, twoGammaSquared)
        let y = f.subtract(f.multiply(alpha, f.subtract(fourBeta, x)), f.add(fourGammaSquared, fourGammaSquared))
        return JacobianPoint(x: x, y: y, z: z)
    }

    /// point + other, `other` affine ("mixed" addition). Equal points are doubled and opposite points give
    /// infinity: ECDSA's sums meet both (Wycheproof builds signatures that do).
    func add(_ point: JacobianPoint, _ other: AffinePoint) -> JacobianPoint {
        if point.isInfinity { return lift(other) }
        let f = field
        let zSquared = f.square(point.z)
        let otherX = f.multiply(other.x, zSquared)
        let otherY = f.multiply(other.y, f.multiply(point.z, zSquared))
        let h = f.subtract(otherX, point.x)
        let r = f.subtract(otherY, point.y)
        if h.isZero { return r.isZero ? double(point) : .infinity }
        let hSquared = f.square(h)
        let hCubed = f.multiply(h, hSquared)
        let v = f.multiply(point.x, hSquared)
        let x = f.subtract(f.subtract(f.square(r), hCubed), f.add(v, v))
        let y = f.subtract(f.multiply(r, f.subtract(v, x)), f.multiply(point.y, hCubed))
        return JacobianPoint(x: x, y: y, z: f.multiply(point.z, h))
    }

    /// The affine form of `point`, or nil for infinity (one field inversion).
    func affine(_ point: JacobianPoint) -> AffinePoint? {
        if point.isInfinity { return nil }
        let f = field
        let inverse = f.inverse(point.z)
        let inverseSquared = f.square(inverse)
        return AffinePoint(
            x: f.multiply(point.x, inverseSquared), y: f.multiply(point.y, f.multiply(inverse, inverseSquared)))
    }

    /// u1·G + u2·Q by Shamir's trick: one pass over the bits of both scalars, one doubling per bit and at most
    /// one addition of G, Q or G + Q (`generatorPlusQ`, nil when it is infinity). Scalars are plain (not
    /// Montgomery form) values below n.
    func linearCombination(
        _ u1: WideInteger, _ u2: WideInteger, q: AffinePoint, generatorPlusQ: AffinePoint?
    ) -> JacobianPoint {
        var result = JacobianPoint.infinity
        for bit in (0..<orderBitLength).reversed() {
            result = double(result)
            switch (u1.bit(bit), u2.bit(bit)) {
            case (true, false): result = add(result, generator)
            case (false, true): result = add(result, q)
            case (true, true): if let sum = generatorPlusQ { result = add(result, sum) }
            case (false, false): break
            }
        }
        return result
    }
}
