import CryptoOracles
import EntitlementKitCrypto
import Testing

/// RSAPublicKey's own rules, beside the Wycheproof vectors: which keys it makes, the signature's length and
/// range, and agreement with the schoolbook oracle on signatures made with a test key's private exponent.
@Suite(.timeLimit(.minutes(5)))
struct RSAPublicKeyTests {
    /// A throwaway 2048-bit key (`openssl genrsa 2048`, only for these tests): n and d; e = 65537.
    static let modulus = hexBytes(
        "c925eff762731a1f617c22ba386e96cba74b63e450b309a19d8ea2a09a4fda88c0b21905f54e6bb41a4c2205631439a6ad232e1dd4"
            + "f1e76942d2fe55177fa9aaeb796488ae0235a2f60dfaa660c25cae6652bec069a7fa58b7b81f3d0785df490dd38e37818b9cc757ab"
            + "87beb69fa71f98a245bfe5dba11553929a475397ebb1504583544bc76f6df3a9ff42492dc0145188e9bac57936f45cf3c1597229b4"
            + "653062c7a547d07cc011dfcea4e4a42fa254c05b84164138b226bf25d2b975de2d8932ecda01efbffc3d01ba88dc1d0cff9ca9d70ed"
            + "46fbcff9d2511e2a46e1bf0e3724f3b2d51fa20f62e6a89ea5783064af61531cb635d115d4804b0907b5985")
    static let privateExponent = hexBytes(
        "1fc632e468b456f58b10316a2a3ce9ec2cb69f8672eafd43fee007b787f8c24424f05d3c9035fd947b2cf898d2406124ffa79582d7"
            + "df08979b9b39dad635efe6d4809e0d6b336526a368ace5f855eb8f0f11d6190df79f77c139c011836d35cad3f8cdb7ddea606f2add"
            + "a9394a9ee8a6f894f5a0ad1e271177dcaa2b473cb1d9ce5ac1efe5ec48d696f8b3d264bdf8a4faa0f2d061305fa1164f85a682ac51"
            + "c48413f7180e5345d306e76c82cd980603449998bf8ff7a7cbe4b192b45347316167f35889506c3a533adcb7d68a6d24e209e57a03"
            + "28f597afb7448f79daec77d6988d713769c2b19a5aa7e0f1536f0773c548d29ee22240bf0256ee57ced7b737")

    @Test func aSignatureByThePrivateExponentVerifiesAndTheOracleAgrees() throws {
        let key = try RSAPublicKey(modulus: Self.modulus, publicExponent: [1, 0, 1])
        for message in ["", "a", "an RTDN push"] {
            let digest = SHA256.digest(of: Array(message.utf8))
            let signature = try #require(key.testSignature(sha256Digest: digest, privateExponent: Self.privateExponent))
            #expect(key.isValidSignature(signature, sha256Digest: digest))
            #expect(
                RSAOracle.isValidSignature(
                    modulus: Self.modulus, publicExponent: [1, 0, 1], signature: signature, sha256Digest: digest)
                    == true)
            var other = digest
            other[31] ^= 1
            #expect(!key.isValidSignature(signature, sha256Digest: other))
        }
    }

    @Test func theSignatureIsExactlyTheModulusLengthAndBelowIt() throws {
        let key = try RSAPublicKey(modulus: Self.modulus, publicExponent: [1, 0, 1])
        let digest = SHA256.digest(of: Array("x".utf8))
        let signature = try #require(key.testSignature(sha256Digest: digest, privateExponent: Self.privateExponent))
        // A leading zero byte keeps the value and breaks the length; s + n has the same residue but is ≥ n.
        #expect(!key.isValidSignature([0] + signature, sha256Digest: digest))
        #expect(!key.isValidSignature(signature.dropFirst(), sha256Digest: digest))
        #expect(!key.isValidSignature(Self.modulus, sha256Digest: digest))
        #expect(!key.isValidSignature(signature, sha256Digest: Array(digest.prefix(31))))
    }

    @Test func keysOutsideTheSupportedRangeAreRefused() throws {
        #expect(throws: RSAKeyError.modulusSizeUnsupported(bits: 2047)) {
            try RSAPublicKey(modulus: [0x7F] + [UInt8](repeating: 0xFF, count: 255), publicExponent: [3])
        }
        #expect(throws: RSAKeyError.modulusSizeUnsupported(bits: 4104)) {
            try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 513), publicExponent: [3])
        }
        #expect(throws: RSAKeyError.modulusEven) {
            try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 255) + [0xFE], publicExponent: [3])
        }
        for exponent: [UInt8] in [[], [1], [2], [0, 1], [1, 0, 0]] {
            #expect(throws: RSAKeyError.exponentUnusable) {
                try RSAPublicKey(modulus: Self.modulus, publicExponent: exponent)
            }
        }
        #expect(throws: RSAKeyError.exponentUnusable) {
            try RSAPublicKey(modulus: Self.modulus, publicExponent: Self.modulus)
        }
        // Leading zero bytes, as a DER INTEGER carries them, are no part of the size.
        let key = try RSAPublicKey(modulus: [0, 0] + Self.modulus, publicExponent: [0, 1, 0, 1])
        #expect(
            key.modulusByteCount == 256 && key.modulusBytes == Self.modulus && key.publicExponentBytes == [1, 0, 1])
    }
}
