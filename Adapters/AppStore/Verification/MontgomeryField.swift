/// Arithmetic modulo an odd number below 2^384 — a curve's prime p or its group order n — in Montgomery
/// form: a value `a` is held as a·R mod m with R = 2^(64·limbCount), so a product needs no division
/// (Montgomery's reduction, in the "coarsely integrated operand scanning" order of Koç, Acar and Kaliski).
/// One generic reduction serves both curves and both moduli; the special forms of the NIST primes would be
/// faster still, but verification is fast enough without them (see the bench's `jws` figure).
///
/// Nothing here is constant-time, on purpose: only public values (signatures, public keys, digests of
/// public data) ever reach it.
struct MontgomeryField: Sendable {
    let modulus: WideInteger
    /// 4 for P-256, 6 for P-384.
    let limbCount: Int
    /// −m⁻¹ mod 2^64.
    private let negatedInverse: UInt64
    /// R² mod m, to enter Montgomery form with one product.
    private let rSquared: WideInteger
    /// 1 in Montgomery form (R mod m).
    let one: WideInteger

    init(modulus: WideInteger, limbCount: Int) {
        self.modulus = modulus
        self.limbCount = limbCount
        // Newton's iteration doubles the correct low bits each step: 1 → 2 → … → 64 bits in six steps.
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus[0] &* inverse) }
        negatedInverse = 0 &- inverse
        // R mod m and R² mod m by doubling 1 modulo m; done once per modulus.
        var power = WideInteger(1)
        var doubled = WideInteger()
        for step in 0..<(128 * limbCount) {
            power = Self.add(power, power, modulus: modulus)
            if step == 64 * limbCount - 1 { doubled = power }
        }
        one = doubled
        rSquared = power
    }

    /// `value` (below the modulus) in Montgomery form.
    func enter(_ value: WideInteger) -> WideInteger { multiply(value, rSquared) }

    /// The plain value of `value`, fully reduced.
    func leave(_ value: WideInteger) -> WideInteger { multiply(value, WideInteger(1)) }

    func add(_ left: WideInteger, _ right: WideInteger) -> WideInteger {
        Self.add(left, right, modulus: modulus)
    }

    private static func add(_ left: WideInteger, _ right: WideInteger, modulus: WideInteger) -> WideInteger {
        var sum = left
        // Both operands are below m, so one subtraction suffices; a carry out of 384 bits (P-384 only)
        // means the sum is above m, and the wrapping subtraction gives the right value.
        if sum.add(right) || !(sum < modulus) { sum.subtract(modulus) }
        return sum
    }

    func subtract(_ left: WideInteger, _ right: WideInteger) -> WideInteger {
        var difference = left
        if difference.subtract(right) { difference.add(modulus) }
        return difference
    }

    func negate(_ value: WideInteger) -> WideInteger { subtract(WideInteger(), value) }

    /// a·b·R⁻¹ mod m: the product of two values in Montgomery form, in Montgomery form.
    func multiply(_ left: WideInteger, _ right: WideInteger) -> WideInteger {
        let count = limbCount
        let negatedInverse = negatedInverse
        // count + 2 limbs of running sum; eight is enough for P-384.
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        let top = withUnsafeMutableBytes(of: &scratch) { raw in
            let sum = raw.baseAddress!.assumingMemoryBound(to: UInt64.self)
            left.withLimbs { left in
                right.withLimbs { right in
                    modulus.withLimbs { modulus in
                        for index in 0..<count {
                            // sum += left · right[index]
                            let factor = right[index]
                            var carry: UInt64 = 0
                            for position in 0..<count {
                                (carry, sum[position]) = multiplyAdd(left[position], factor, sum[position], carry)
                            }
                            let (high, overflow) = sum[count].addingReportingOverflow(carry)
                            sum[count] = high
                            sum[count + 1] = overflow ? 1 : 0
                            // sum += modulus · q with q chosen so the low limb becomes zero, then drop that limb.
                            let quotient = sum[0] &* negatedInverse
                            (carry, _) = multiplyAdd(quotient, modulus[0], sum[0], 0)
                            for position in 1..<count {
                                (carry, sum[position - 1]) = multiplyAdd(
                                    quotient, modulus[position], sum[position], carry)
                            }
                            let (shifted, overflow2) = sum[count].addingReportingOverflow(carry)
                            sum[count - 1] = shifted
                            sum[count] = sum[count + 1] &+ (overflow2 ? 1 : 0)
                        }
                    }
                }
            }
            return sum[count]
        }
        var result = WideInteger()
        withUnsafeBytes(of: scratch) { raw in
            let sum = raw.baseAddress!.assumingMemoryBound(to: UInt64.self)
            result.withMutableLimbs { limbs in
                for position in 0..<count { limbs[position] = sum[position] }
                // Below 2m: the extra limb joins the value for P-256; for P-384 it is the carry of a
                // wrapping subtraction.
                if count < WideInteger.limbCapacity { limbs[count] = top }
            }
        }
        if top != 0 || !(result < modulus) { result.subtract(modulus) }
        return result
    }

    func square(_ value: WideInteger) -> WideInteger { multiply(value, value) }

    /// value^(m−2), the inverse of a non-zero value modulo the prime m (Fermat); 0 for 0. Montgomery form
    /// in and out.
    func inverse(_ value: WideInteger) -> WideInteger {
        var exponent = modulus
        exponent.subtract(WideInteger(2))
        var result = one
        for bit in (0..<(64 * limbCount)).reversed() {
            result = square(result)
            if exponent.bit(bit) { result = multiply(result, value) }
        }
        return result
    }

    /// x·y + addend + carry as (high, low) limbs; never overflows 128 bits.
    private func multiplyAdd(_ x: UInt64, _ y: UInt64, _ addend: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (high, low) = x.multipliedFullWidth(by: y)
        let (partial, overflow1) = low.addingReportingOverflow(addend)
        let (sum, overflow2) = partial.addingReportingOverflow(carry)
        return (high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0), sum)
    }
}
