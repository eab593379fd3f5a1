#!/usr/bin/env python3
"""Writes FixedFields.swift: Montgomery arithmetic modulo P-256's and P-384's p and n, one struct per
modulus, every limb loop unrolled and every constant a literal. Straight-line code is what makes the
field fast in release and bearable in debug; a generator keeps the four moduli from drifting apart.

    python3 Sources/EntitlementKitCrypto/Generator/generate_fields.py > Sources/EntitlementKitCrypto/FixedFields.swift
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
    # addition
    p("    static func + (a: %s, b: %s) -> %s {" % (name, name, name))
    p("        var carry: UInt64 = 0")
    for i in range(count):
        p("        let s%d = addWithCarry(a.w%d, b.w%d, &carry)" % (i, i, i))
    p("        return reduced(%s, carry: carry)" % ", ".join("s%d" % i for i in range(count)))
    p("    }")
    p("")
    p("    static func - (a: %s, b: %s) -> %s {" % (name, name, name))
    p("        var borrow: UInt64 = 0")
    for i in range(count):
        p("        let d%d = subtractWithBorrow(a.w%d, b.w%d, &borrow)" % (i, i, i))
    p("        if borrow == 0 { return %s(%s) }" % (name, ", ".join("d%d" % i for i in range(count))))
    p("        var carry: UInt64 = 0")
    for i in range(count):
        if m[i] == 0:
            p("        let e%d = addWithCarry(d%d, 0, &carry)" % (i, i))
        else:
            p("        let e%d = addWithCarry(d%d, %s, &carry)" % (i, i, lit(m[i])))
    p("        return %s(%s)" % (name, ", ".join("e%d" % i for i in range(count))))
    p("    }")
    p("")
    p("    /// The value of the limbs and a carry above them (below twice the modulus), minus the modulus when")
    p("    /// that is not negative.")
    p("    private static func reduced(" + ", ".join("_ s%d: UInt64" % i for i in range(count)) + ", carry: UInt64) -> %s {" % name)
    p("        var borrow: UInt64 = 0")
    for i in range(count):
        p("        let d%d = subtractWithBorrow(s%d, %s, &borrow)" % (i, i, lit(m[i])))
    p("        if carry != 0 || borrow == 0 { return %s(%s) }" % (name, ", ".join("d%d" % i for i in range(count))))
    p("        return %s(%s)" % (name, ", ".join("s%d" % i for i in range(count))))
    p("    }")
    p("")
    # Montgomery multiplication, CIOS, unrolled.
    p("    /// a·b·2^−%d mod m (Montgomery's product, coarsely integrated operand scanning, unrolled)." % (64 * count))
    p("    static func * (a: %s, b: %s) -> %s {" % (name, name, name))
    t = ["t%d" % i for i in range(count + 2)]
    p("        var " + ", ".join("%s: UInt64 = 0" % x for x in t))
    p("        var carry: UInt64 = 0")
    p("        var quotient: UInt64 = 0")
    p("        var top: UInt64 = 0")
    for i in range(count):
        p("        // limb %d of b" % i)
        p("        carry = 0")
        for j in range(count):
            p("        t%d = multiplyAdd(a.w%d, b.w%d, t%d, &carry)" % (j, j, i, j))
        p("        t%d = addWithCarry(t%d, carry, &t%d)" % (count, count, count + 1) if False else "        (t%d, t%d) = addOverflow(t%d, carry)" % (count, count + 1, count))
        if m_prime == 1:
            p("        quotient = t0")
        else:
            p("        quotient = t0 &* %s" % lit(m_prime))
        p("        carry = 0")
        if m[0] == 2**64 - 1:
            # With m' = 1, q = t0 and t0 + q·(2^64 − 1) = q·2^64: the low word is zero and the carry is q.
            p("        carry = quotient")
        else:
            p("        _ = multiplyAdd(quotient, %s, t0, &carry)" % lit(m[0]))
        for j in range(1, count):
            if m[j] == 0:
                p("        t%d = addWithCarry(t%d, carry, 0, &carry)" % (j - 1, j) if False else "        (t%d, carry) = addOverflow(t%d, carry)" % (j - 1, j))
            else:
                p("        t%d = multiplyAdd(quotient, %s, t%d, &carry)" % (j - 1, lit(m[j]), j))
        p("        (t%d, top) = addOverflow(t%d, carry)" % (count - 1, count))
        p("        t%d = t%d &+ top" % (count, count + 1))
    p("        return reduced(%s, carry: t%d)" % (", ".join("t%d" % i for i in range(count)), count))
    p("    }")
    p("}")
    p("")
    return "\n".join(out)


print("// Generated by Generator/generate_fields.py; edit the generator, not this file.")
print("")
for entry in MODULI:
    print(emit(*entry))
print("""/// a + b + carry; `carry` becomes the carry out (0 or 1).
@inline(__always)
func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (partial, overflow1) = a.addingReportingOverflow(b)
    let (sum, overflow2) = partial.addingReportingOverflow(carry)
    carry = (overflow1 ? 1 : 0) | (overflow2 ? 1 : 0)
    return sum
}

/// a − b − borrow; `borrow` becomes the borrow out (0 or 1).
@inline(__always)
func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: inout UInt64) -> UInt64 {
    let (partial, overflow1) = a.subtractingReportingOverflow(b)
    let (difference, overflow2) = partial.subtractingReportingOverflow(borrow)
    borrow = (overflow1 ? 1 : 0) | (overflow2 ? 1 : 0)
    return difference
}

/// a + b as a word and its carry (0 or 1).
@inline(__always)
func addOverflow(_ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return (sum, overflow ? 1 : 0)
}

/// a·b + c + carry, which fits in 128 bits: the low word, and the high word in `carry`.
@inline(__always)
func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ carry: inout UInt64) -> UInt64 {
    let (high, low) = a.multipliedFullWidth(by: b)
    let (partial, overflow1) = low.addingReportingOverflow(c)
    let (sum, overflow2) = partial.addingReportingOverflow(carry)
    carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
    return sum
}""")
