/// Arithmetic modulo an odd RSA modulus of any width, in Montgomery form (a value `a` is held as a·R mod n,
/// R = 2^(64·limbCount)), limbs least significant first. Separate from `MontgomeryField`, whose values are
/// fixed six-limb tuples sized for the curves; an RSA modulus has 32 to 64 limbs.
///
/// The structure of a product does not depend on the values: every limb is visited whatever its value and
/// the final subtraction is selected by a mask, not a branch. Verification only meets public values; the
/// test kit's signer is the one caller with a secret exponent, and it signs test data only.
struct RSAModulus: Sendable {
    /// n, little-endian limbs, the top limb non-zero.
    let limbs: [UInt64]
    /// −n⁻¹ mod 2^64.
    private let negatedInverse: UInt64
    /// R² mod n, to enter Montgomery form with one product.
    private let rSquared: [UInt64]

    /// The modulus of big-endian `bytes` without leading zeros; it must be odd and above 1.
    init(bigEndian bytes: [UInt8]) {
        limbs = Self.limbs(bigEndian: bytes, count: (bytes.count + 7) / 8)
        precondition(limbs[0] & 1 == 1 && (limbs.count > 1 || limbs[0] > 1), "an RSA modulus is odd and above 1")
        // Newton's iteration doubles the correct low bits each step: 1 → 2 → … → 64 bits in six steps.
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- limbs[0] &* inverse) }
        negatedInverse = 0 &- inverse
        // R² mod n by doubling 1 modulo n, 2·64·limbCount times; done once per key.
        var power = [UInt64](repeating: 0, count: limbs.count)
        power[0] = 1
        for _ in 0..<(128 * limbs.count) { Self.doubleModulo(&power, limbs) }
        rSquared = power
    }

    var limbCount: Int { limbs.count }

    /// `count` little-endian limbs of big-endian `bytes` (which must fit).
    static func limbs(bigEndian bytes: some Collection<UInt8>, count: Int) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: count)
        var position = 0
        for byte in bytes.reversed() {
            result[position / 8] |= UInt64(byte) << UInt64(8 * (position % 8))
            position += 1
        }
        return result
    }

    /// The value of `limbs` as exactly `count` big-endian bytes (the value fits).
    static func bigEndianBytes(_ limbs: [UInt64], count: Int) -> [UInt8] {
        (0..<count).reversed().map { position in
            UInt8(truncatingIfNeeded: limbs[position / 8] >> UInt64(8 * (position % 8)))
        }
    }

    /// Whether `left` < `right`, both `right.count` limbs; every limb is compared.
    static func isLess(_ left: [UInt64], _ right: [UInt64]) -> Bool {
        var borrow: UInt64 = 0
        for index in 0..<right.count {
            let (partial, overflow1) = left[index].subtractingReportingOverflow(right[index])
            let overflow2 = partial < borrow
            borrow = (overflow1 ? 1 : 0) | (overflow2 ? 1 : 0)
        }
        return borrow == 1
    }

    /// value = 2·value mod n, for value < n.
    private static func doubleModulo(_ value: inout [UInt64], _ modulus: [UInt64]) {
        var carry: UInt64 = 0
        for index in 0..<value.count {
            let limb = value[index]
            value[index] = limb << 1 | carry
            carry = limb >> 63
        }
        subtractConditionally(&value, modulus, overflow: carry)
    }

    /// value −= n when value ≥ n or `overflow` (a limb above value's top) is 1, chosen by a mask: the limbs
    /// are walked twice whatever the outcome.
    private static func subtractConditionally(_ value: inout [UInt64], _ modulus: [UInt64], overflow: UInt64) {
        var difference = value
        var borrow: UInt64 = 0
        for index in 0..<value.count {
            let (partial, overflow1) = value[index].subtractingReportingOverflow(modulus[index])
            let (total, overflow2) = partial.subtractingReportingOverflow(borrow)
            difference[index] = total
            borrow = (overflow1 ? 1 : 0) | (overflow2 ? 1 : 0)
        }
        // Take the difference when it did not go below zero, or when the overflow limb absorbs its borrow.
        let takeDifference = 0 &- ((borrow ^ 1) | overflow)
        for index in 0..<value.count {
            value[index] = (difference[index] & takeDifference) | (value[index] & ~takeDifference)
        }
    }

    /// a·b·R⁻¹ mod n, both below n: the product of two values in Montgomery form, in Montgomery form.
    func multiply(_ left: [UInt64], _ right: [UInt64]) -> [UInt64] {
        let count = limbs.count
        var sum = [UInt64](repeating: 0, count: count + 2)
        left.withUnsafeBufferPointer { a in
            right.withUnsafeBufferPointer { b in
                limbs.withUnsafeBufferPointer { m in
                    sum.withUnsafeMutableBufferPointer { sum in
                        Self.accumulate(a: a, b: b, m: m, negatedInverse: negatedInverse, into: sum)
                    }
                }
            }
        }
        var result = Array(sum[0..<count])
        Self.subtractConditionally(&result, limbs, overflow: sum[count])
        return result
    }

    /// The coarsely integrated operand scanning loop (Koç, Acar, Kaliski): after it, `sum` holds a·b·R⁻¹
    /// + k·n for some k, below 2n, its limb `count` the one above the modulus's width.
    private static func accumulate(
        a: UnsafeBufferPointer<UInt64>, b: UnsafeBufferPointer<UInt64>, m: UnsafeBufferPointer<UInt64>,
        negatedInverse: UInt64, into sum: UnsafeMutableBufferPointer<UInt64>
    ) {
        let count = m.count
        var index = 0
        while index < count {
            let factor = b[index]
            var carry: UInt64 = 0
            var position = 0
            while position < count {
                let (high, low) = a[position].multipliedFullWidth(by: factor)
                let (partial, overflow1) = low.addingReportingOverflow(sum[position])
                let (total, overflow2) = partial.addingReportingOverflow(carry)
                sum[position] = total
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
                position += 1
            }
            let (extended, overflow) = sum[count].addingReportingOverflow(carry)
            sum[count] = extended
            sum[count + 1] = overflow ? 1 : 0
            // sum += m · q, q chosen so the low limb becomes zero; then drop that limb.
            let quotient = sum[0] &* negatedInverse
            let (firstHigh, firstLow) = quotient.multipliedFullWidth(by: m[0])
            carry = firstHigh &+ (firstLow.addingReportingOverflow(sum[0]).overflow ? 1 : 0)
            position = 1
            while position < count {
                let (high, low) = quotient.multipliedFullWidth(by: m[position])
                let (partial, overflow1) = low.addingReportingOverflow(sum[position])
                let (total, overflow2) = partial.addingReportingOverflow(carry)
                sum[position - 1] = total
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
                position += 1
            }
            let (shifted, overflow2) = sum[count].addingReportingOverflow(carry)
            sum[count - 1] = shifted
            sum[count] = sum[count + 1] &+ (overflow2 ? 1 : 0)
            index += 1
        }
    }

    /// base^exponent mod n, plain values in and out (base below n; exponent big-endian, any length),
    /// left to right over the exponent's bits.
    func power(_ base: [UInt64], exponent: [UInt8]) -> [UInt64] {
        let enteredBase = multiply(base, rSquared)
        var one = [UInt64](repeating: 0, count: limbs.count)
        one[0] = 1
        var result = multiply(one, rSquared)
        for byte in exponent {
            for shift in stride(from: 7, through: 0, by: -1) {
                result = multiply(result, result)
                if (byte >> UInt8(shift)) & 1 == 1 { result = multiply(result, enteredBase) }
            }
        }
        return multiply(result, one)
    }
}
