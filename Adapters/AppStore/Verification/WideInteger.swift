/// An unsigned integer below 2^384 in six 64-bit limbs, least significant first: wide enough for P-384, and
/// P-256's values simply leave the top two limbs zero. A tuple, not an array, so the arithmetic allocates
/// nothing (the debug build runs every Wycheproof vector in the tests).
struct WideInteger: Sendable, Equatable {
    typealias Limbs = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    static let limbCapacity = 6

    var limbs: Limbs = (0, 0, 0, 0, 0, 0)

    init() {}

    init(_ small: UInt64) { limbs.0 = small }

    /// The value of big-endian `bytes` (leading zeros allowed), or nil when it needs more than 384 bits.
    init?(bigEndian bytes: some Collection<UInt8>) {
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
    func bigEndianBytes(count: Int) -> [UInt8] {
        (0..<count).reversed().map { position in UInt8(truncatingIfNeeded: self[position / 8] >> (UInt64(position % 8) * 8)) }
    }

    subscript(index: Int) -> UInt64 {
        get { withLimbs { $0[index] } }
        set { withMutableLimbs { $0[index] = newValue } }
    }

    /// Calls `body` with the six limbs as contiguous memory (a homogeneous tuple is laid out as an array).
    func withLimbs<Result>(_ body: (UnsafePointer<UInt64>) -> Result) -> Result {
        withUnsafeBytes(of: limbs) { body($0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
    }

    mutating func withMutableLimbs<Result>(_ body: (UnsafeMutablePointer<UInt64>) -> Result) -> Result {
        withUnsafeMutableBytes(of: &limbs) { body($0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
    }

    var isZero: Bool { self == WideInteger() }

    static func == (left: WideInteger, right: WideInteger) -> Bool { left.limbs == right.limbs }

    static func < (left: WideInteger, right: WideInteger) -> Bool {
        for index in (0..<limbCapacity).reversed() where left[index] != right[index] {
            return left[index] < right[index]
        }
        return false
    }

    /// Whether bit `index` (0 = least significant) is set.
    func bit(_ index: Int) -> Bool { (self[index / 64] >> UInt64(index % 64)) & 1 == 1 }

    /// Adds `other` modulo 2^384; returns the carry out of the top limb.
    @discardableResult
    mutating func add(_ other: WideInteger) -> Bool {
        other.withLimbs { other in
            withMutableLimbs { limbs in
                var carry = false
                for index in 0..<Self.limbCapacity {
                    let (partial, overflow1) = limbs[index].addingReportingOverflow(other[index])
                    let (sum, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
                    limbs[index] = sum
                    carry = overflow1 || overflow2
                }
                return carry
            }
        }
    }

    /// Subtracts `other` modulo 2^384; returns the borrow out of the top limb.
    @discardableResult
    mutating func subtract(_ other: WideInteger) -> Bool {
        other.withLimbs { other in
            withMutableLimbs { limbs in
                var borrow = false
                for index in 0..<Self.limbCapacity {
                    let (partial, overflow1) = limbs[index].subtractingReportingOverflow(other[index])
                    let (difference, overflow2) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
                    limbs[index] = difference
                    borrow = overflow1 || overflow2
                }
                return borrow
            }
        }
    }
}
