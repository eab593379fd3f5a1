#!/usr/bin/env python3
"""Writes FixedFields.swift: Montgomery arithmetic modulo P-256's and P-384's p and n, one struct per
modulus, every limb loop unrolled and every constant a literal. Straight-line code is what makes the
field fast in release and bearable in debug; a generator keeps the four moduli from drifting apart.

    python3 Sources/EntitlementKitCrypto/Generator/generate_fields.py > Sources/EntitlementKitCrypto/FixedFields.swift
    swift format -i Sources/EntitlementKitCrypto/FixedFields.swift

No carry or reduction here takes a branch on data: a carry is as likely as not, and on this kind of
machine the mispredicted jumps cost more than the multiplications did.
"""

MODULI = [
    ("P256FieldElement", "P-256's field prime p = 2^256 − 2^224 + 2^192 + 2^96 − 1",
     0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff, 4),
    ("P256ScalarElement", "P-256's group order n",
     0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551, 4),
    ("P384FieldElement", "P-384's field prime p = 2^384 − 2^128 − 2^96 + 2^32 − 1",
     0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff, 6),
    ("P384ScalarElement", "P-384's group order n",
     0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973, 6),
]


def limbs(value, count):
    return [(value >> (64 * i)) & (2**64 - 1) for i in range(count)]


def lit(value):
    text = "%016x" % value
    return "0x" + "_".join(text[i:i + 4] for i in range(0, 16, 4))


def emit(name, doc, modulus, count):
    m = limbs(modulus, count)
    r = 2 ** (64 * count)
    m_prime = (-pow(modulus, -1, 2**64)) % 2**64
    one = limbs(r % modulus, count)
    r2 = limbs(r * r % modulus, count)
    w = ["w%d" % i for i in range(count)]
    out = []
    p = out.append
    p("/// A value modulo %s, in Montgomery form (a·2^%d mod m) unless a" % (doc, 64 * count))
    p("/// function says otherwise; fully reduced, so equal values have equal limbs. Limbs least significant first.")
    p("struct %s: Sendable, Equatable {" % name)
    p("    var " + ", ".join(w) + ": UInt64")
    p("")
    p("    static let zero = %s(%s)" % (name, ", ".join("0" for _ in w)))
    p("    /// 1 in Montgomery form.")
    p("    static let one = %s(%s)" % (name, ", ".join(lit(x) for x in one)))
    p("    /// The modulus (a plain value, not below itself: only for comparisons and the final check).")
    p("    static let modulus = %s(%s)" % (name, ", ".join(lit(x) for x in m)))
    p("    static let bitLength = %d" % (64 * count))
    p("")
    p("    init(" + ", ".join("_ %s: UInt64" % x for x in w) + ") {")
    for x in w:
        p("        self.%s = %s" % (x, x))
    p("    }")
    p("")
    p("    /// The low %d limbs of `value` (plain, not converted)." % count)
    p("    init(plain value: WideInteger) {")
    p("        self.init(" + ", ".join("value.limbs.%d" % i for i in range(count)) + ")")
    p("    }")
    p("")
    p("    /// The limbs as a `WideInteger` (plain, not converted).")
    p("    var wide: WideInteger {")
    p("        var value = WideInteger()")
    p("        value.limbs = (" + ", ".join(w[i] if i < count else "0" for i in range(6)) + ")")
    p("        return value")
    p("    }")
    p("")
    p("    var isZero: Bool { " + " | ".join(w) + " == 0 }")
    p("")
    p("    /// Whether the limbs, read as a plain integer, are below `other`'s.")
    p("    func isLess(than other: %s) -> Bool {" % name)
    for i in reversed(range(1, count)):
        p("        if w%d != other.w%d { return w%d < other.w%d }" % (i, i, i, i))
    p("        return w0 < other.w0")
    p("    }")
    p("")
    p("    /// `value` (a plain value below the modulus) in Montgomery form.")
    p("    static func entering(_ value: %s) -> %s {" % (name, name))
    p("        value * %s(%s)" % (name, ", ".join(lit(x) for x in r2)))
    p("    }")
    p("")
    p("    /// The plain value of this Montgomery form.")
    p("    var leaving: %s { self * %s(%s) }" % (name, name, ", ".join(["1"] + ["0"] * (count - 1))))
    p("")
    p("    static func + (a: %s, b: %s) -> %s {" % (name, name, name))
    p("        var carry: UInt64 = 0")
    for i in range(count):
        p("        let s%d = addWithCarry(a.w%d, b.w%d, &carry)" % (i, i, i))
    p("        return reduced(%s, carry: carry)" % ", ".join("s%d" % i for i in range(count)))
    p("    }")
    p("")
    p("    /// a − b, adding the modulus back under a mask rather than a branch: the borrow is a coin toss, and a")
    p("    /// mispredicted branch costs more than the addition.")
    p("    static func - (a: %s, b: %s) -> %s {" % (name, name, name))
    p("        var borrow: UInt64 = 0")
    for i in range(count):
        p("        let d%d = subtractWithBorrow(a.w%d, b.w%d, &borrow)" % (i, i, i))
    p("        let mask = 0 &- borrow")
    p("        var carry: UInt64 = 0")
    for i in range(count):
        if m[i] == 0:
            p("        let e%d = addWithCarry(d%d, 0, &carry)" % (i, i))
        else:
            p("        let e%d = addWithCarry(d%d, %s & mask, &carry)" % (i, i, lit(m[i])))
    p("        return %s(%s)" % (name, ", ".join("e%d" % i for i in range(count))))
    p("    }")
    p("")
    p("    /// The value of the limbs and a carry above them (below twice the modulus), minus the modulus when")
    p("    /// that is not negative; chosen by a mask, not a branch.")
    p("    private static func reduced(" + ", ".join("_ s%d: UInt64" % i for i in range(count)) + ", carry: UInt64) -> %s {" % name)
    p("        var borrow: UInt64 = 0")
    for i in range(count):
        p("        let d%d = subtractWithBorrow(s%d, %s, &borrow)" % (i, i, lit(m[i])))
    p("        // Keep the sum only when the subtraction borrowed and nothing was carried above the limbs.")
    p("        let keep = 0 &- (borrow & (carry ^ 1))")
    p("        return %s(%s)" % (name, ", ".join("d%d ^ ((d%d ^ s%d) & keep)" % (i, i, i) for i in range(count))))
    p("    }")
    p("")
    p("    /// a·b·2^−%d mod m: the schoolbook product, then Montgomery's reduction." % (64 * count))
    p("    static func * (a: %s, b: %s) -> %s {" % (name, name, name))
    p("        var carry: UInt64 = 0")
    for i in range(count):
        p("        // a · limb %d of b" % i)
        p("        carry = 0")
        for j in range(count):
            k = i + j
            if i == 0:
                p("        %s t%d = multiplyAdd(a.w%d, b.w%d, 0, &carry)" % ("let" if j == 0 else "var", k, j, i))
            else:
                p("        t%d = multiplyAdd(a.w%d, b.w%d, t%d, &carry)" % (k, j, i, k))
        p("        %s t%d = carry" % ("let" if i == count - 1 else "var", i + count))
    p("        return montgomeryReduced(%s)" % ", ".join("t%d" % k for k in range(2 * count)))
    p("    }")
    p("")
    p("    /// a·a·2^−%d mod m: each cross product once, doubled, plus the squares of the limbs; about a third" % (64 * count))
    p("    /// fewer word products than `a * a`.")
    p("    var squared: %s {" % name)
    p("        var carry: UInt64 = 0")
    declared = set()
    for i in range(count - 1):
        p("        // limb %d times the limbs above it" % i)
        p("        carry = 0")
        for j in range(i + 1, count):
            k = i + j
            if k in declared:
                p("        t%d = multiplyAdd(w%d, w%d, t%d, &carry)" % (k, i, j, k))
            else:
                p("        var t%d = multiplyAdd(w%d, w%d, 0, &carry)" % (k, i, j))
                declared.add(k)
        p("        var t%d = carry" % (i + count))
        declared.add(i + count)
    top = 2 * count - 1
    p("        // Twice the cross products (they are below 2^%d, so the doubling fits)." % (128 * count - 1))
    p("        var t%d = t%d >> 63" % (top, top - 1))
    for k in range(top - 1, 1, -1):
        p("        t%d = (t%d << 1) | (t%d >> 63)" % (k, k, k - 1))
    p("        t1 = t1 << 1")
    p("        // Plus the squares of the limbs on the diagonal.")
    p("        var (high, low) = w0.multipliedFullWidth(by: w0)")
    p("        let t0 = low")
    p("        carry = 0")
    p("        t1 = addWithCarry(t1, high, &carry)")
    for i in range(1, count):
        p("        (high, low) = w%d.multipliedFullWidth(by: w%d)" % (i, i))
        p("        t%d = addWithCarry(t%d, low, &carry)" % (2 * i, 2 * i))
        p("        t%d = addWithCarry(t%d, high, &carry)" % (2 * i + 1, 2 * i + 1))
    p("        return Self.montgomeryReduced(%s)" % ", ".join("t%d" % k for k in range(2 * count)))
    p("    }")
    p("")
    p("    /// t·2^−%d mod m for a product t of two values below m, given as %d limbs (Montgomery's reduction," % (64 * count, 2 * count))
    p("    /// one limb of t cleared per step by adding a multiple of m).")
    p("    @inline(__always)")
    p("    private static func montgomeryReduced(" + ", ".join("_ t%d: UInt64" % k for k in range(2 * count)) + ") -> %s {" % name)
    for k in range(1, 2 * count):
        p("        var t%d = t%d" % (k, k))
    p("        var carry: UInt64 = 0")
    p("        var top: UInt64 = 0")
    p("        var quotient: UInt64 = 0")
    for i in range(count):
        p("        // clear limb %d" % i)
        if m_prime == 1:
            p("        quotient = t%d" % i)
        else:
            p("        quotient = t%d &* %s" % (i, lit(m_prime)))
        if not (m[0] == 2**64 - 1 and m_prime == 1):
            p("        carry = 0")
        for j in range(count):
            k = i + j
            if j == 0 and m[0] == 2**64 - 1 and m_prime == 1:
                # q = t_i and t_i + q·(2^64 − 1) = q·2^64: the limb clears and the carry is q.
                p("        carry = quotient")
            elif j == 0:
                p("        _ = multiplyAdd(quotient, %s, t%d, &carry)" % (lit(m[0]), k))
            elif m[j] == 0:
                p("        (t%d, carry) = addOverflow(t%d, carry)" % (k, k))
            else:
                p("        t%d = multiplyAdd(quotient, %s, t%d, &carry)" % (k, lit(m[j]), k))
        p("        t%d = addWithCarry(t%d, carry, &top)" % (i + count, i + count))
    p("        return reduced(%s, carry: top)" % ", ".join("t%d" % k for k in range(count, 2 * count)))
    p("    }")
    p("}")
    p("")
    return "\n".join(out)


print("// Generated by Generator/generate_fields.py; edit the generator, not this file.")
print("")
for entry in MODULI:
    print(emit(*entry))
print("""/// 1 for true, 0 for false, without a branch: `flag ? 1 : 0` compiles to a conditional jump in these
/// carry chains, and a carry is as unpredictable as a coin, so the jumps cost more than the arithmetic.
@inline(__always)
func word(_ flag: Bool) -> UInt64 {
    UInt64(unsafeBitCast(flag, to: UInt8.self))
}

/// a + b + carry; `carry` becomes the carry out (0 or 1).
@inline(__always)
func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (partial, overflow1) = a.addingReportingOverflow(b)
    let (sum, overflow2) = partial.addingReportingOverflow(carry)
    carry = word(overflow1) | word(overflow2)
    return sum
}

/// a − b − borrow; `borrow` becomes the borrow out (0 or 1).
@inline(__always)
func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: inout UInt64) -> UInt64 {
    let (partial, overflow1) = a.subtractingReportingOverflow(b)
    let (difference, overflow2) = partial.subtractingReportingOverflow(borrow)
    borrow = word(overflow1) | word(overflow2)
    return difference
}

/// a + b as a word and its carry (0 or 1).
@inline(__always)
func addOverflow(_ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return (sum, word(overflow))
}

/// a·b + c + carry, which fits in 128 bits: the low word, and the high word in `carry`.
@inline(__always)
func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (high, low) = a.multipliedFullWidth(by: b)
    let (partial, overflow1) = low.addingReportingOverflow(c)
    let (sum, overflow2) = partial.addingReportingOverflow(carry)
    carry = high &+ word(overflow1) &+ word(overflow2)
    return sum
}""")
