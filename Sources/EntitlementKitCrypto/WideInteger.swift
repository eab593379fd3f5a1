/// An unsigned integer below 2^384 in six 64-bit limbs, least significant first: wide enough for P-384, and
/// P-256's values simply leave the top two limbs zero. A tuple, not an array, so the arithmetic allocates
/// nothing (the debug build runs every Wycheproof vector in the tests).
package struct WideInteger: Sendable, Equatable {
    package typealias Limbs = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    package static let limbCapacity = 6

    package var limbs: Limbs = (0, 0, 0, 0, 0, 0)

    package init() {}

    package init(_ small: UInt64) { limbs.0 = small }

    /// The value of big-endian `bytes` (leading zeros allowed), or nil when it needs more than 384 bits.
    package init?(bigEndian bytes: some Collection<UInt8>) {
        let significant = bytes.drop { $0 == 0 }
        guard significant.count <= Self.limbCapacity * 8 else { return nil }
        var shift: UInt64 = 0
        var index = 0
        for byte in significant.reversed() {
            self[index] |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                shift = 0
                index += 1
            }
        }
    }

    /// The low `count` bytes, big-endian.
    package func bigEndianBytes(count: Int) -> [UInt8] {
        (0..<count).reversed().map { position in
            UInt8(truncatingIfNeeded: self[position / 8] >> (UInt64(position % 8) * 8))
        }
    }

    // The operations below spell out all six limbs rather than loop over pointers or compare tuples
    // generically: unoptimised (debug) builds run them without closures or metadata lookups, which keeps
    // the Wycheproof tests fast.

    package subscript(index: Int) -> UInt64 {
        get {
            switch index {
            case 0: limbs.0
            case 1: limbs.1
            case 2: limbs.2
            case 3: limbs.3
            case 4: limbs.4
            default: limbs.5
            }
        }
        set {
            switch index {
            case 0: limbs.0 = newValue
            case 1: limbs.1 = newValue
            case 2: limbs.2 = newValue
            case 3: limbs.3 = newValue
            case 4: limbs.4 = newValue
            default: limbs.5 = newValue
            }
        }
    }

    /// Writes the six limbs to `destination[0..<6]`.
    package func store(into destination: UnsafeMutablePointer<UInt64>) {
        destination[0] = limbs.0
        destination[1] = limbs.1
        destination[2] = limbs.2
        destination[3] = limbs.3
        destination[4] = limbs.4
        destination[5] = limbs.5
    }

    /// The value of `source[0..<6]`.
    package init(loading source: UnsafePointer<UInt64>) {
        limbs = (source[0], source[1], source[2], source[3], source[4], source[5])
    }

    package var isZero: Bool { limbs.0 | limbs.1 | limbs.2 | limbs.3 | limbs.4 | limbs.5 == 0 }

    package static func == (left: WideInteger, right: WideInteger) -> Bool {
        left.limbs.0 == right.limbs.0 && left.limbs.1 == right.limbs.1 && left.limbs.2 == right.limbs.2
            && left.limbs.3 == right.limbs.3 && left.limbs.4 == right.limbs.4 && left.limbs.5 == right.limbs.5
    }

    package static func < (left: WideInteger, right: WideInteger) -> Bool {
        if left.limbs.5 != right.limbs.5 { return left.limbs.5 < right.limbs.5 }
        if left.limbs.4 != right.limbs.4 { return left.limbs.4 < right.limbs.4 }
        if left.limbs.3 != right.limbs.3 { return left.limbs.3 < right.limbs.3 }
        if left.limbs.2 != right.limbs.2 { return left.limbs.2 < right.limbs.2 }
        if left.limbs.1 != right.limbs.1 { return left.limbs.1 < right.limbs.1 }
        return left.limbs.0 < right.limbs.0
    }

    /// Whether bit `index` (0 = least significant) is set.
    package func bit(_ index: Int) -> Bool { (self[index >> 6] >> UInt64(index & 63)) & 1 == 1 }

    /// Adds `other` modulo 2^384; returns the carry out of the top limb.
    @discardableResult
    package mutating func add(_ other: WideInteger) -> Bool {
        combineLimbs(with: other, Self.add)
    }

    /// Subtracts `other` modulo 2^384; returns the borrow out of the top limb.
    @discardableResult
    package mutating func subtract(_ other: WideInteger) -> Bool {
        combineLimbs(with: other, Self.subtract)
    }

    /// Runs `step` over the limb pairs from the least significant, threading its carry (or borrow);
    /// returns whether one is left out of the top limb. Inlined, so each caller's step is a direct call.
    @inline(__always)
    private mutating func combineLimbs(
        with other: WideInteger, _ step: (UInt64, UInt64, inout UInt64) -> UInt64
    ) -> Bool {
        var carry: UInt64 = 0
        limbs.0 = step(limbs.0, other.limbs.0, &carry)
        limbs.1 = step(limbs.1, other.limbs.1, &carry)
        limbs.2 = step(limbs.2, other.limbs.2, &carry)
        limbs.3 = step(limbs.3, other.limbs.3, &carry)
        limbs.4 = step(limbs.4, other.limbs.4, &carry)
        limbs.5 = step(limbs.5, other.limbs.5, &carry)
        return carry != 0
    }

    private static func add(_ left: UInt64, _ right: UInt64, _ carry: inout UInt64) -> UInt64 {
        let (partial, overflow1) = left.addingReportingOverflow(right)
        let (sum, overflow2) = partial.addingReportingOverflow(carry)
        carry = overflow1 || overflow2 ? 1 : 0
        return sum
    }

    private static func subtract(_ left: UInt64, _ right: UInt64, _ borrow: inout UInt64) -> UInt64 {
        let (partial, overflow1) = left.subtractingReportingOverflow(right)
        let (difference, overflow2) = partial.subtractingReportingOverflow(borrow)
        borrow = overflow1 || overflow2 ? 1 : 0
        return difference
    }
}
