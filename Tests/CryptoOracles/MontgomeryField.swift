import EntitlementKitCrypto

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
        // One stack buffer, plain `while` loops and no helper calls: this is where verification spends its
        // time, and unoptimised builds would otherwise pay for closures, iterators and tuple returns.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 26) { buffer in
            guard let a = buffer.baseAddress else { preconditionFailure("no stack buffer") }
            let b = a + 6
            let m = a + 12
            let sum = a + 18  // count + 2 limbs of running sum
            left.store(into: a)
            right.store(into: b)
            modulus.store(into: m)
            // Eight stores, not `initialize(repeating:count:)`: an unoptimised build calls memset for that.
            sum[0] = 0
            sum[1] = 0
            sum[2] = 0
            sum[3] = 0
            sum[4] = 0
            sum[5] = 0
            sum[6] = 0
            sum[7] = 0
            var index = 0
            while index < count {
                // sum += a · b[index]
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
            // The sum is below 2m. For P-256 its fifth limb joins the value; for P-384 a seventh limb is the
            // carry that the wrapping subtraction below absorbs.
            let top = sum[count]
            if count < WideInteger.limbCapacity {
                sum[count] = top
                sum[count + 1] = 0
            }
            var result = WideInteger(loading: sum)
            if top != 0 || !(result < modulus) { result.subtract(modulus) }
            return result
        }
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
}
