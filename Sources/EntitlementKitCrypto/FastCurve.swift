/// What the fast ECDSA path needs of a modulus: one of the generated fixed-width Montgomery types
/// (`FixedFields.swift`), four limbs for P-256 and six for P-384, all in registers and on the stack.
protocol FixedWidthModular: Sendable, Equatable {
    static var zero: Self { get }
    /// 1 in Montgomery form.
    static var one: Self { get }
    /// The modulus, as plain limbs.
    static var modulus: Self { get }
    static var bitLength: Int { get }
    init(plain value: WideInteger)
    var wide: WideInteger { get }
    var isZero: Bool { get }
    func isLess(than other: Self) -> Bool
    static func entering(_ value: Self) -> Self
    var leaving: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    /// self · self, cheaper than `self * self`.
    var squared: Self { get }
}

extension P256FieldElement: FixedWidthModular {}
extension P256ScalarElement: FixedWidthModular {}
extension P384FieldElement: FixedWidthModular {}
extension P384ScalarElement: FixedWidthModular {}

extension FixedWidthModular {
    /// The inverse of a non-zero Montgomery-form value (in Montgomery form), by Fermat: self^(m−2), read
    /// four bits at a time against self^0 … self^15 on the stack — a squaring per bit and a product per
    /// window, where the binary extended Euclid on `WideInteger` took twice as long for s⁻¹ mod n.
    var inverse: Self {
        var exponent = Self.modulus.wide
        exponent.subtract(WideInteger(2))
        return withUnsafeTemporaryAllocation(of: Self.self, capacity: 16) { powers in
            powers.initialize(repeating: Self.one)
            for index in 1..<16 { powers[index] = powers[index - 1] * self }
            var result = Self.one
            for window in stride(from: Self.bitLength / 4 - 1, through: 0, by: -1) {
                result = result.squared.squared.squared.squared
                let digit = Int(exponent.bits(from: 4 * window, count: 4))
                if digit != 0 { result = result * powers[digit] }
            }
            return result
        }
    }
}

/// A prime-order short-Weierstrass curve y² = x³ − 3x + b with fixed-width arithmetic: P-256 or P-384.
protocol FixedWidthCurve {
    associatedtype Field: FixedWidthModular
    associatedtype Scalar: FixedWidthModular
    /// b, in Montgomery form.
    static var b: Field { get }
    /// G's odd multiples 1·G, 3·G, …, (2^(w−1) − 1)·G, affine, for a width-w NAF of u1; built once.
    static var generatorTable: [CurvePoint<Field>] { get }
}

/// The width of the NAF of u1 (the generator's scalar): its table is built once per process, so it is
/// wide; 32 affine points.
let generatorWindow = 7
/// The width of the NAF of u2 (the key's scalar): its table of 8 points is built once per key.
let keyWindow = 5

/// A point with affine coordinates in Montgomery form; never the point at infinity.
struct CurvePoint<Field: FixedWidthModular>: Sendable, Equatable {
    var x: Field
    var y: Field

    var negated: CurvePoint { CurvePoint(x: x, y: Field.zero - y) }
}

/// (X : Y : Z) standing for (X/Z², Y/Z³); Z = 0 is the point at infinity.
struct ProjectivePoint<Field: FixedWidthModular>: Sendable {
    var x: Field
    var y: Field
    var z: Field

    static var infinity: ProjectivePoint { ProjectivePoint(x: Field.one, y: Field.one, z: Field.zero) }

    init(x: Field, y: Field, z: Field) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ point: CurvePoint<Field>) {
        self.init(x: point.x, y: point.y, z: Field.one)
    }

    var isInfinity: Bool { z.isZero }

    /// 2·self with the a = −3 shortcut ("dbl-2001-b", Explicit-Formulas Database): 3M + 5S.
    func doubled() -> ProjectivePoint {
        if isInfinity { return self }
        let delta = z.squared
        let gamma = y.squared
        let beta = x * gamma
        let product = (x - delta) * (x + delta)
        let alpha = product + product + product
        let twoBeta = beta + beta
        let fourBeta = twoBeta + twoBeta
        let newX = alpha.squared - (fourBeta + fourBeta)
        let sum = y + z
        let newZ = sum.squared - gamma - delta
        let gammaSquared = gamma.squared
        let twoGammaSquared = gammaSquared + gammaSquared
        let fourGammaSquared = twoGammaSquared + twoGammaSquared
        let newY = alpha * (fourBeta - newX) - (fourGammaSquared + fourGammaSquared)
        return ProjectivePoint(x: newX, y: newY, z: newZ)
    }

    /// self + other, `other` affine ("mixed" addition, 8M + 3S). Equal points are doubled and opposite
    /// points give infinity: ECDSA's sums can meet both (Wycheproof builds signatures that do).
    func adding(_ other: CurvePoint<Field>) -> ProjectivePoint {
        if isInfinity { return ProjectivePoint(other) }
        let zSquared = z.squared
        let otherX = other.x * zSquared
        let otherY = other.y * (z * zSquared)
        let h = otherX - x
        let r = otherY - y
        if h.isZero { return r.isZero ? doubled() : .infinity }
        let hSquared = h.squared
        let hCubed = h * hSquared
        let v = x * hSquared
        let newX = r.squared - hCubed - (v + v)
        let newY = r * (v - newX) - y * hCubed
        return ProjectivePoint(x: newX, y: newY, z: z * h)
    }
}

extension FixedWidthCurve {
    /// Whether (x, y), Montgomery form, satisfies y² = x³ − 3x + b.
    static func contains(_ point: CurvePoint<Field>) -> Bool {
        let x = point.x
        let threeX = x + x + x
        return point.y * point.y == x * x * x - threeX + b
    }

    /// `point`'s odd multiples 1·P, 3·P, …, (2^(window−1) − 1)·P as affine points, with two field
    /// inversions in all (2P, then every point at once by Montgomery's trick).
    static func oddMultiples(of point: CurvePoint<Field>, window: Int) -> [CurvePoint<Field>] {
        let count = 1 << (window - 2)
        let doubled = ProjectivePoint(point).doubled()
        let zInverse = doubled.z.inverse
        let zInverseSquared = zInverse * zInverse
        let twoP = CurvePoint(x: doubled.x * zInverseSquared, y: doubled.y * zInverseSquared * zInverse)
        var projective = [ProjectivePoint(point)]
        for _ in 1..<count { projective.append(projective[projective.count - 1].adding(twoP)) }
        // Montgomery's trick: the products of the Z's, one inversion, then each inverse from them.
        var prefix: [Field] = []
        var running = Field.one
        for entry in projective {
            prefix.append(running)
            running = running * entry.z
        }
        var inverse = running.inverse
        var affine = [CurvePoint<Field>](repeating: point, count: count)
        for index in (0..<count).reversed() {
            let zInverse = inverse * prefix[index]
            inverse = inverse * projective[index].z
            let zInverseSquared = zInverse * zInverse
            affine[index] = CurvePoint(
                x: projective[index].x * zInverseSquared, y: projective[index].y * zInverseSquared * zInverse)
        }
        return affine
    }

    /// Whether (r, s) — plain values, checked here to lie in [1, n − 1] — signs `digest` under the key whose
    /// odd multiples are `keyTable` (SEC 1 §4.1.4), with no inversion in the final check.
    static func isValidSignature(
        r: WideInteger, s: WideInteger, digest: ArraySlice<UInt8>, keyTable: [CurvePoint<Field>]
    ) -> Bool {
        let n = Scalar.modulus.wide
        guard !r.isZero, r < n, !s.isZero, s < n else { return false }
        // e: the leftmost bits of the digest, as many as n has (whole bytes for both curves), reduced mod n
        // (it is below 2n, so one subtraction does).
        guard var e = WideInteger(bigEndian: digest.prefix(Scalar.bitLength / 8)) else { return false }
        if !(e < n) { e.subtract(n) }
        // w = s⁻¹·R in Montgomery form, so a plain e or r times it (Montgomery's product divides by R) is
        // the plain u1 or u2.
        let w = Scalar.entering(Scalar(plain: s)).inverse
        let u1 = (Scalar(plain: e) * w).wide
        let u2 = (Scalar(plain: r) * w).wide
        let sum = linearCombination(u1: u1, u2: u2, keyTable: keyTable)
        if sum.isInfinity { return false }
        // x mod n = r, where x = X/Z² is below p < 2n: x is r or r + n. Comparing X with r·Z² (and (r + n)·Z²
        // when that is below p) needs no field inversion. Montgomery forms are fully reduced, so equal
        // values compare equal.
        let zSquared = sum.z.squared
        if Field.entering(Field(plain: r)) * zSquared == sum.x { return true }
        var rPlusN = r
        let p = Field.modulus.wide
        guard !rPlusN.add(n), rPlusN < p else { return false }
        return Field.entering(Field(plain: rPlusN)) * zSquared == sum.x
    }
}

extension FixedWidthCurve {
    /// u1·G + u2·Q (Q's odd multiples in `keyTable`; plain scalars below n) by interleaved width-w NAFs over
    /// one chain of doublings, with mixed additions from G's table and Q's.
    static func linearCombination(
        u1: WideInteger, u2: WideInteger, keyTable: [CurvePoint<Field>]
    ) -> ProjectivePoint<Field> {
        let generator = generatorTable
        let bits = Scalar.bitLength + 1
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * bits) { digits in
            guard let generatorDigits = digits.baseAddress else { preconditionFailure("no stack buffer") }
            let keyDigits = generatorDigits + bits
            let top = max(
                NonAdjacentForm.write(u1, window: generatorWindow, digitCount: bits, into: generatorDigits),
                NonAdjacentForm.write(u2, window: keyWindow, digitCount: bits, into: keyDigits))
            var sum = ProjectivePoint<Field>.infinity
            var index = top
            while index >= 0 {
                sum = sum.doubled()
                let g = generatorDigits[index]
                if g > 0 {
                    sum = sum.adding(generator[Int(g) >> 1])
                } else if g < 0 {
                    sum = sum.adding(generator[Int(-g) >> 1].negated)
                }
                let q = keyDigits[index]
                if q > 0 {
                    sum = sum.adding(keyTable[Int(q) >> 1])
                } else if q < 0 {
                    sum = sum.adding(keyTable[Int(-q) >> 1].negated)
                }
                index -= 1
            }
            return sum
        }
    }
}

/// Width-w non-adjacent form: digits that are zero or odd in (−2^(w−1), 2^(w−1)), at most one non-zero in
/// any w consecutive, with Σ digit·2^i the scalar. Fewer non-zero digits than bits, and a negative digit
/// costs nothing (an affine point is negated by its y).
enum NonAdjacentForm {
    /// Writes the `digitCount` digits of `scalar` (below 2^(digitCount − 1)) to `digits`, least
    /// significant first; returns the index of the highest non-zero digit, or −1 for zero.
    static func write(
        _ scalar: WideInteger, window: Int, digitCount: Int, into digits: UnsafeMutablePointer<Int8>
    ) -> Int {
        var highest = -1
        var carry = 0
        var bit = 0
        let mask = (1 << window) - 1
        while bit < digitCount {
            digits[bit] = 0
            if (scalar.bitIfPresent(bit) ? 1 : 0) == carry {
                bit += 1
                continue
            }
            var word = Int(scalar.bits(from: bit, count: window)) & mask
            word += carry
            carry = (word >> (window - 1)) & 1
            word -= carry << window
            digits[bit] = Int8(word)
            highest = bit
            let end = min(bit + window, digitCount)
            bit += 1
            while bit < end {
                digits[bit] = 0
                bit += 1
            }
        }
        return highest
    }
}
