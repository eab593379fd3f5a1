import EntitlementKitCrypto

/// A second, deliberately plain RSASSA-PKCS1-v1_5/SHA-256 verifier, kept only as a yardstick: schoolbook
/// products over 32-bit limbs, remainders by shifting and subtracting one bit at a time, and the encoding
/// read field by field rather than compared whole. The tests and the `rsa-differential` fuzz target hold
/// ``RSAPublicKey`` to its verdicts. Nothing that ships calls it.
package enum RSAOracle {
    /// The oracle's verdict on `signature` over a SHA-256 digest under (n, e), big-endian; nil when the key
    /// is one `RSAPublicKey` refuses to make (sizes outside 2048…4096 bits, an even n, an unusable e).
    package static func isValidSignature(
        modulus: [UInt8], publicExponent: [UInt8], signature: [UInt8], sha256Digest: [UInt8]
    ) -> Bool? {
        let n = Natural(bigEndian: modulus)
        let e = Natural(bigEndian: publicExponent)
        let bits = n.bitWidth
        guard bits >= 2048, bits <= 4096, n.bit(0), e.bit(0), e.bitWidth >= 2, e < n else { return nil }
        let length = (bits + 7) / 8
        guard signature.count == length else { return false }
        let s = Natural(bigEndian: signature)
        guard s < n else { return false }
        var m = Natural(limbs: [1])
        for index in stride(from: e.bitWidth - 1, through: 0, by: -1) {
            m = (m * m).remainder(n)
            if e.bit(index) { m = (m * s).remainder(n) }
        }
        return isEncoding(m.bigEndianBytes(count: length), of: sha256Digest)
    }

    /// Reads `00 01`, then FF bytes up to a `00` (at least eight), then SHA-256's DigestInfo and the digest,
    /// to the last byte.
    static func isEncoding(_ encoded: [UInt8], of digest: [UInt8]) -> Bool {
        guard encoded.count > 2, encoded[0] == 0, encoded[1] == 1 else { return false }
        var index = 2
        while index < encoded.count, encoded[index] == 0xFF { index += 1 }
        guard index - 2 >= 8, index < encoded.count, encoded[index] == 0 else { return false }
        let digestInfo: [UInt8] =
            [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09]
            + [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]  // 2.16.840.1.101.3.4.2.1, SHA-256
            + [0x05, 0x00, 0x04, 0x20] + digest
        return Array(encoded[(index + 1)...]) == digestInfo
    }

    /// A non-negative integer, 32-bit limbs least significant first, no zero limbs on top.
    struct Natural: Comparable {
        var limbs: [UInt32]

        init(limbs: [UInt32]) {
            self.limbs = limbs
            while self.limbs.last == 0 { self.limbs.removeLast() }
        }

        init(bigEndian bytes: [UInt8]) {
            var limbs = [UInt32](repeating: 0, count: (bytes.count + 3) / 4)
            for (position, byte) in bytes.reversed().enumerated() {
                limbs[position / 4] |= UInt32(byte) << UInt32(8 * (position % 4))
            }
            self.init(limbs: limbs)
        }

        func bigEndianBytes(count: Int) -> [UInt8] {
            (0..<count).reversed().map { position in
                position / 4 < limbs.count
                    ? UInt8(truncatingIfNeeded: limbs[position / 4] >> UInt32(8 * (position % 4))) : 0
            }
        }

        var bitWidth: Int { limbs.last.map { 32 * limbs.count - $0.leadingZeroBitCount } ?? 0 }

        func bit(_ index: Int) -> Bool {
            index / 32 < limbs.count && (limbs[index / 32] >> UInt32(index % 32)) & 1 == 1
        }

        static func < (left: Natural, right: Natural) -> Bool {
            if left.limbs.count != right.limbs.count { return left.limbs.count < right.limbs.count }
            for (a, b) in zip(left.limbs.reversed(), right.limbs.reversed()) where a != b { return a < b }
            return false
        }

        static func * (left: Natural, right: Natural) -> Natural {
            var product = [UInt32](repeating: 0, count: left.limbs.count + right.limbs.count + 1)
            for (i, a) in left.limbs.enumerated() {
                var carry: UInt64 = 0
                for (j, b) in right.limbs.enumerated() {
                    let total = UInt64(a) * UInt64(b) + UInt64(product[i + j]) + carry
                    product[i + j] = UInt32(truncatingIfNeeded: total)
                    carry = total >> 32
                }
                product[i + right.limbs.count] = UInt32(carry)
            }
            return Natural(limbs: product)
        }

        /// self mod divisor, one bit at a time from the top: r = 2r + bit, less the divisor when it fits.
        func remainder(_ divisor: Natural) -> Natural {
            var r = Natural(limbs: [])
            for index in stride(from: bitWidth - 1, through: 0, by: -1) {
                r.shiftLeftOne(carryIn: bit(index))
                if !(r < divisor) { r.subtract(divisor) }
            }
            return r
        }

        mutating func shiftLeftOne(carryIn: Bool) {
            var carry: UInt32 = carryIn ? 1 : 0
            for index in limbs.indices {
                let limb = limbs[index]
                limbs[index] = limb << 1 | carry
                carry = limb >> 31
            }
            if carry != 0 { limbs.append(carry) }
        }

        /// self −= other, other ≤ self.
        mutating func subtract(_ other: Natural) {
            var borrow: Int64 = 0
            for index in limbs.indices {
                var difference =
                    Int64(limbs[index]) - borrow - (index < other.limbs.count ? Int64(other.limbs[index]) : 0)
                borrow = difference < 0 ? 1 : 0
                if difference < 0 { difference += 1 << 32 }
                limbs[index] = UInt32(difference)
            }
            while limbs.last == 0 { limbs.removeLast() }
        }
    }
}
