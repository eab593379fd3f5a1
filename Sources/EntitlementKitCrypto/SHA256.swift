/// SHA-256 (FIPS 180-4 §6.2), small and dependency-free: the core's directory cache names its files by the
/// digest of the app user id and seals each file with one, ES256 signs the digest of a JWS's signing input,
/// and HMAC-SHA256 is built on it. CryptoKit is absent on Linux and the package takes no third-party code.
///
/// Feed bytes in parts with ``update(_:)`` and take the digest with ``finalize()``, or hash at once with
/// ``digest(of:)``. A hasher is a value: a copy taken after a shared prefix carries on from there, so a
/// prefix that repeats is hashed once.
public struct SHA256: Sendable {
    /// The length of a digest in bytes.
    public static let byteCount = 32
    /// The length of a block in bytes (HMAC pads its key to it).
    public static let blockByteCount = 64

    private var state: State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes that do not fill a block yet (fewer than 64).
    private var pending: [UInt8] = []
    private var byteTotal: UInt64 = 0

    private typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// A hasher that has read nothing.
    public init() {}

    /// The 32-byte digest of `bytes`.
    public static func digest(of bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    package static func hexDigest(of bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * byteCount)
        for byte in digest(of: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads `bytes` after everything read so far.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in absorb(buffer) }
        if done == nil { Array(bytes).withUnsafeBufferPointer { absorb($0) } }
    }

    /// The digest of everything read.
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = byteTotal &* 8
        var tail: [UInt8] = [0x80]
        let padding = (copy.pending.count + 1 + 8) % 64
        tail += [UInt8](repeating: 0, count: padding == 0 ? 0 : 64 - padding)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> shift)) }
        tail.withUnsafeBufferPointer { copy.absorb($0, counting: false) }
        let words = copy.state
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.byteCount)
        for word in [words.0, words.1, words.2, words.3, words.4, words.5, words.6, words.7] {
            digest += [
                UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ]
        }
        return digest
    }

    private mutating func absorb(_ input: UnsafeBufferPointer<UInt8>, counting: Bool = true) {
        if counting { byteTotal &+= UInt64(input.count) }
        var start = 0
        // Unsafe buffers keep the debug build fast enough for tests that hash a file per damaged byte.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            Self.roundConstants.withUnsafeBufferPointer { constants in
                if !pending.isEmpty {
                    let taken = min(64 - pending.count, input.count)
                    pending += input[0..<taken]
                    start = taken
                    guard pending.count == 64 else { return }
                    pending.withUnsafeBufferPointer { block in
                        guard let block = block.baseAddress else { return }
                        Self.compress(block: block, schedule, constants, &state)
                    }
                    pending.removeAll(keepingCapacity: true)
                }
                guard let base = input.baseAddress else { return }
                while input.count - start >= 64 {
                    Self.compress(block: base + start, schedule, constants, &state)
                    start += 64
                }
            }
        }
        if start < input.count { pending += input[start...] }
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private static func compress(
        block: UnsafePointer<UInt8>, _ schedule: UnsafeMutableBufferPointer<UInt32>,
        _ constants: UnsafeBufferPointer<UInt32>, _ state: inout State
    ) {
        for index in 0..<16 {
            let offset = index * 4
            schedule[index] =
                UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16 | UInt32(block[offset + 2]) << 8
                | UInt32(block[offset + 3])
        }
        for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = rotate(early, 7) ^ rotate(early, 18) ^ (early >> 3)
            let sigma1 = rotate(late, 17) ^ rotate(late, 19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var (a, b, c, d, e, f, g, h) = state
        for index in 0..<64 {
            let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
            let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
            state.7 &+ h
        )
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
