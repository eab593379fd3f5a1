import EntitlementKitCrypto
import Testing

/// HMAC-SHA256 against RFC 4231's test cases (§4.2–§4.8), the constant-time comparison, and SHA-256 fed in
/// parts (a hasher copied after a shared prefix is how the JWS verifier and HMAC hash less).
@Suite(.timeLimit(.minutes(5)))
struct HMACTests {
    static let longKey = [UInt8](repeating: 0xaa, count: 131)

    @Test(
        arguments: [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                Array(1...25), [UInt8](repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                longKey, Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                longKey,
                Array(
                    ("This is a test using a larger than block-size key and a larger than block-size data. The key "
                        + "needs to be hashed before being used by the HMAC algorithm.").utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ] as [([UInt8], [UInt8], String)])
    func rfc4231TestCase(key: [UInt8], message: [UInt8], code: String) {
        #expect(hexString(HMACSHA256.authenticationCode(for: message, key: key)) == code)
        #expect(HMACSHA256.isValidAuthenticationCode(hexBytes(code), for: message, key: key))
    }

    /// RFC 4231 §4.6: the code truncated to 128 bits is the published prefix.
    @Test func rfc4231TruncatedCase() {
        let code = HMACSHA256.authenticationCode(
            for: Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(hexString(Array(code.prefix(16))) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func aCodeDifferingInOneBitOrLengthIsRefused() {
        let key = Array("Jefe".utf8)
        let message = Array("what do ya want for nothing?".utf8)
        let code = HMACSHA256.authenticationCode(for: message, key: key)
        for index in code.indices {
            var altered = code
            altered[index] ^= 0x01
            #expect(!HMACSHA256.isValidAuthenticationCode(altered, for: message, key: key))
        }
        #expect(!HMACSHA256.isValidAuthenticationCode(code.prefix(31), for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(code + [0], for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode([UInt8](), for: message, key: key))
    }

    @Test func constantTimeComparisonComparesEveryByte() {
        #expect(ConstantTimeComparison.isEqual([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTimeComparison.isEqual([UInt8](), [UInt8]()))
        #expect(!ConstantTimeComparison.isEqual([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTimeComparison.isEqual([9, 2, 3], [1, 2, 3]))
        #expect(!ConstantTimeComparison.isEqual([1, 2, 3], [1, 2]))
    }

    /// FIPS 180-4's two-block example, fed in two parts split at every byte and in three parts around a
    /// block edge: the digest never depends on how the bytes arrive, and a copied hasher carries on alone.
    @Test func sha256InPartsEqualsAtOnce() {
        let message = Array(
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                + "mnopqrstnopqrstu").utf8)
        let expected = "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        #expect(hexString(SHA256.digest(of: message)) == expected)
        for split in 0...message.count {
            var hasher = SHA256()
            hasher.update(message[..<split])
            let prefix = hasher
            hasher.update(message[split...])
            #expect(hexString(hasher.finalize()) == expected, "split at \(split)")
            var fromCopy = prefix
            fromCopy.update(message[split...])
            #expect(fromCopy.finalize() == hasher.finalize())
        }
        var parts = SHA256()
        parts.update(message[..<60])
        parts.update(message[60..<70])
        parts.update(message[70...])
        #expect(hexString(parts.finalize()) == expected)
    }
}
