import EntitlementKitCrypto
import Foundation

/// ECDSA P-256 signing with SHA-256 (ES256) for **test material only**: the simulated App Store signs its
/// JWS with the test chain's leaf key, whose private key is committed with the test kit.
///
/// Nothing here is constant-time and the key it holds is public by design, so it must never sign with a
/// real key. The nonce is deterministic (HMAC-SHA256 keyed with the private key over the digest and a
/// counter, reduced mod n), so the same message signs to the same JWS in every run. The package itself only verifies; this is the test
/// kit's own small arithmetic (Montgomery multiplication on four 64-bit limbs, Jacobian coordinates).
struct TestP256Signer: Sendable {
    private let privateKey: Limbs

    /// A signer with the private scalar `privateKey` (32 big-endian bytes, 0 < d < n).
    init?(privateKey bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        let scalar = P256.limbs(bigEndian: bytes)
        guard !P256.isZero(scalar), P256.compare(scalar, P256.order.modulus) < 0 else { return nil }
        privateKey = scalar
    }

    /// A signer with the scalar of a PEM `EC PRIVATE KEY` (SEC 1) on P-256, as `openssl ecparam -genkey`
    /// writes it; `nil` when the text is not one.
    init?(pem: String) {
        let body = pem.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        // SEC 1: SEQUENCE { INTEGER 1, OCTET STRING (32 bytes: d), [0] prime256v1, [1] public key }.
        let prefix: [UInt8] = [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20]
        guard let der = Data(base64Encoded: body).map(Array.init), der.count == 121, der.starts(with: prefix) else {
            return nil
        }
        self.init(privateKey: Array(der[prefix.count..<(prefix.count + 32)]))
    }

    /// The raw signature `r ‖ s` (64 bytes) of SHA-256(`message`).
    func signature(of message: some Collection<UInt8>) -> [UInt8] {
        let digest = SHA256.digest(of: message)
        let order = P256.order
        let z = order.reduce(P256.limbs(bigEndian: digest))
        var counter: UInt8 = 0
        while true {
            defer { counter &+= 1 }
            let nonce = order.reduce(
                P256.limbs(
                    bigEndian: HMACSHA256.authenticationCode(for: digest + [counter], key: P256.bigEndian(privateKey))))
            guard !P256.isZero(nonce), let point = P256.multiplyGenerator(by: nonce) else { continue }
            let r = order.reduce(point.x)
            guard !P256.isZero(r) else { continue }
            // s = k⁻¹ (z + r d) mod n, in the order's Montgomery form.
            let k = order.enter(nonce)
            let sum = order.add(order.enter(z), order.multiply(order.enter(r), order.enter(privateKey)))
            let s = order.leave(order.multiply(order.inverse(k), sum))
            guard !P256.isZero(s) else { continue }
            return P256.bigEndian(r) + P256.bigEndian(s)
        }
    }
}

/// A 256-bit number as four 64-bit limbs, least significant first (a value type: no allocation per step,
/// which a debug build would pay for on every field operation).
private typealias Limbs = SIMD4<UInt64>

/// P-256's constants and the little arithmetic ``TestP256Signer`` needs.
private enum P256 {
    // Little-endian 64-bit limbs of SEC 2's P-256 constants.
    static let field = ModularArithmetic(
        modulus: [0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0x0000_0000_0000_0000, 0xFFFF_FFFF_0000_0001])
    static let order = ModularArithmetic(
        modulus: [0xF3B9_CAC2_FC63_2551, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000])
    static let generator: (x: Limbs, y: Limbs) = (
        x: [0xF4A1_3945_D898_C296, 0x7703_7D81_2DEB_33A0, 0xF8BC_E6E5_63A4_40F2, 0x6B17_D1F2_E12C_4247],
        y: [0xCBB6_4068_37BF_51F5, 0x2BCE_3357_6B31_5ECE, 0x8EE7_EB4A_7C0F_9E16, 0x4FE3_42E2_FE1A_7F9B]
    )

    /// Little-endian limbs of 32 big-endian bytes.
    static func limbs(bigEndian bytes: [UInt8]) -> Limbs {
        var limbs = Limbs()
        for limb in 0..<4 {
            limbs[limb] = (0..<8).reduce(UInt64(0)) { value, byte in
                value << 8 | UInt64(bytes[31 - limb * 8 - (7 - byte)])
            }
        }
        return limbs
    }

    static func bigEndian(_ limbs: Limbs) -> [UInt8] {
        (0..<4).reversed().flatMap { index in
            (0..<8).reversed().map { UInt8(truncatingIfNeeded: limbs[index] >> ($0 * 8)) }
        }
    }

    static func isZero(_ value: Limbs) -> Bool { value == Limbs() }

    /// -1, 0 or 1 as `left` is below, equal to or above `right`.
    static func compare(_ left: Limbs, _ right: Limbs) -> Int {
        for index in (0..<4).reversed() where left[index] != right[index] {
            return left[index] < right[index] ? -1 : 1
        }
        return 0
    }

    /// `scalar`·G in affine coordinates (`nil` at a degenerate step: the caller tries another nonce).
    static func multiplyGenerator(by scalar: Limbs) -> (x: Limbs, y: Limbs)? {
        let f = field
        let g = (x: f.enter(generator.x), y: f.enter(generator.y))
        var point: (x: Limbs, y: Limbs, z: Limbs)?
        for bit in (0..<256).reversed() {
            if let current = point { point = double(current) }
            guard scalar[bit / 64] >> UInt64(bit % 64) & 1 == 1 else { continue }
            guard let current = point else {
                point = (g.x, g.y, f.enter([1, 0, 0, 0]))
                continue
            }
            guard let sum = addGenerator(current, g) else { return nil }
            point = sum
        }
        guard let point else { return nil }
        let zInverse = f.inverse(point.z)
        let zInverseSquared = f.multiply(zInverse, zInverse)
        return (
            f.leave(f.multiply(point.x, zInverseSquared)),
            f.leave(f.multiply(point.y, f.multiply(zInverseSquared, zInverse)))
        )
    }

    /// 2P for a = −3 ("dbl-2001-b").
    private static func double(_ p: (x: Limbs, y: Limbs, z: Limbs)) -> (
        x: Limbs, y: Limbs, z: Limbs
    ) {
        let f = field
        let delta = f.multiply(p.z, p.z)
        let gamma = f.multiply(p.y, p.y)
        let beta = f.multiply(p.x, gamma)
        let product = f.multiply(f.subtract(p.x, delta), f.add(p.x, delta))
        let alpha = f.add(product, f.add(product, product))
        let fourBeta = f.add(f.add(beta, beta), f.add(beta, beta))
        let x = f.subtract(f.multiply(alpha, alpha), f.add(fourBeta, fourBeta))
        let yz = f.add(p.y, p.z)
        let z = f.subtract(f.subtract(f.multiply(yz, yz), gamma), delta)
        let gammaSquared = f.multiply(gamma, gamma)
        let eightGammaSquared = f.add(
            f.add(f.add(gammaSquared, gammaSquared), f.add(gammaSquared, gammaSquared)),
            f.add(f.add(gammaSquared, gammaSquared), f.add(gammaSquared, gammaSquared)))
        let y = f.subtract(f.multiply(alpha, f.subtract(fourBeta, x)), eightGammaSquared)
        return (x, y, z)
    }

    /// P + G with G affine ("madd-2007-bl"); `nil` when P is ±G (not reached with a nonce below n but by
    /// chance, and then the caller tries another nonce).
    private static func addGenerator(
        _ p: (x: Limbs, y: Limbs, z: Limbs), _ g: (x: Limbs, y: Limbs)
    ) -> (x: Limbs, y: Limbs, z: Limbs)? {
        let f = field
        let z1z1 = f.multiply(p.z, p.z)
        let u2 = f.multiply(g.x, z1z1)
        let s2 = f.multiply(g.y, f.multiply(p.z, z1z1))
        let h = f.subtract(u2, p.x)
        guard !isZero(h) else { return nil }
        let hh = f.multiply(h, h)
        let i = f.add(f.add(hh, hh), f.add(hh, hh))
        let j = f.multiply(h, i)
        let rDifference = f.subtract(s2, p.y)
        let r = f.add(rDifference, rDifference)
        let v = f.multiply(p.x, i)
        let x = f.subtract(f.subtract(f.multiply(r, r), j), f.add(v, v))
        let yj = f.multiply(p.y, j)
        let y = f.subtract(f.multiply(r, f.subtract(v, x)), f.add(yj, yj))
        let zh = f.add(p.z, h)
        let z = f.subtract(f.subtract(f.multiply(zh, zh), z1z1), hh)
        return (x, y, z)
    }
}

/// Arithmetic modulo an odd 256-bit modulus, products in Montgomery form (R = 2²⁵⁶).
private struct ModularArithmetic {
    let modulus: Limbs
    /// −modulus⁻¹ mod 2⁶⁴.
    private let inverseOfLowLimb: UInt64
    /// R² mod modulus, to enter Montgomery form.
    private let rSquared: Limbs

    init(modulus: Limbs) {
        self.modulus = modulus
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus[0] &* inverse) }  // Newton: doubles the bits each time
        inverseOfLowLimb = 0 &- inverse
        var value: Limbs = [1, 0, 0, 0]
        for _ in 0..<512 { value = Self.add(value, value, modulus: modulus) }
        rSquared = value
    }

    /// `value` mod modulus, for a value below 2²⁵⁶ (less than twice the modulus for P-256's p and n).
    func reduce(_ value: Limbs) -> Limbs {
        P256.compare(value, modulus) >= 0 ? Self.subtractWithoutBorrow(value, modulus) : value
    }

    func enter(_ value: Limbs) -> Limbs { multiply(reduce(value), rSquared) }
    func leave(_ value: Limbs) -> Limbs { multiply(value, [1, 0, 0, 0]) }
    func add(_ left: Limbs, _ right: Limbs) -> Limbs { Self.add(left, right, modulus: modulus) }

    func subtract(_ left: Limbs, _ right: Limbs) -> Limbs {
        var result = Limbs()
        var borrow = false
        for index in 0..<4 {
            let (first, overflowFirst) = left[index].subtractingReportingOverflow(right[index])
            let (second, overflowSecond) = first.subtractingReportingOverflow(borrow ? 1 : 0)
            result[index] = second
            borrow = overflowFirst || overflowSecond
        }
        return borrow ? Self.addIgnoringCarry(result, modulus) : result
    }

    /// Montgomery product `left · right · R⁻¹` mod modulus (CIOS).
    func multiply(_ left: Limbs, _ right: Limbs) -> Limbs {
        var t = SIMD8<UInt64>()
        for i in 0..<4 {
            var carry: UInt64 = 0
            for j in 0..<4 { (t[j], carry) = Self.multiplyAdd(left[j], right[i], t[j], carry) }
            let (sum, overflow) = t[4].addingReportingOverflow(carry)
            t[4] = sum
            t[5] = overflow ? 1 : 0
            let m = t[0] &* inverseOfLowLimb
            (_, carry) = Self.multiplyAdd(m, modulus[0], t[0], 0)
            for j in 1..<4 { (t[j - 1], carry) = Self.multiplyAdd(m, modulus[j], t[j], carry) }
            let (top, topOverflow) = t[4].addingReportingOverflow(carry)
            t[3] = top
            t[4] = t[5] + (topOverflow ? 1 : 0)
        }
        let result = Limbs(t[0], t[1], t[2], t[3])
        return t[4] != 0 || P256.compare(result, modulus) >= 0 ? Self.subtractWithoutBorrow(result, modulus) : result
    }

    /// `value`⁻¹ by Fermat (`value`^(modulus − 2)), in Montgomery form.
    func inverse(_ value: Limbs) -> Limbs {
        let exponent = Self.subtractWithoutBorrow(modulus, [2, 0, 0, 0])
        var result = enter([1, 0, 0, 0])
        for bit in (0..<256).reversed() {
            result = multiply(result, result)
            if exponent[bit / 64] >> UInt64(bit % 64) & 1 == 1 { result = multiply(result, value) }
        }
        return result
    }

    /// `a · b + c + d` as (low, high): never overflows 128 bits.
    private static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (UInt64, UInt64) {
        var (high, low) = a.multipliedFullWidth(by: b)
        var overflow: Bool
        (low, overflow) = low.addingReportingOverflow(c)
        if overflow { high += 1 }
        (low, overflow) = low.addingReportingOverflow(d)
        if overflow { high += 1 }
        return (low, high)
    }

    private static func add(_ left: Limbs, _ right: Limbs, modulus: Limbs) -> Limbs {
        var result = Limbs()
        var carry = false
        for index in 0..<4 {
            let (first, overflowFirst) = left[index].addingReportingOverflow(right[index])
            let (second, overflowSecond) = first.addingReportingOverflow(carry ? 1 : 0)
            result[index] = second
            carry = overflowFirst || overflowSecond
        }
        return carry || P256.compare(result, modulus) >= 0 ? subtractWithoutBorrow(result, modulus) : result
    }

    /// `left − right` mod 2²⁵⁶.
    private static func subtractWithoutBorrow(_ left: Limbs, _ right: Limbs) -> Limbs {
        var result = Limbs()
        var borrow = false
        for index in 0..<4 {
            let (first, overflowFirst) = left[index].subtractingReportingOverflow(right[index])
            let (second, overflowSecond) = first.subtractingReportingOverflow(borrow ? 1 : 0)
            result[index] = second
            borrow = overflowFirst || overflowSecond
        }
        return result
    }

    /// `left + right` mod 2²⁵⁶.
    private static func addIgnoringCarry(_ left: Limbs, _ right: Limbs) -> Limbs {
        var result = Limbs()
        var carry = false
        for index in 0..<4 {
            let (first, overflowFirst) = left[index].addingReportingOverflow(right[index])
            let (second, overflowSecond) = first.addingReportingOverflow(carry ? 1 : 0)
            result[index] = second
            carry = overflowFirst || overflowSecond
        }
        return result
    }
}
