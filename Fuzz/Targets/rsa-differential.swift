// fuzz-modules: EntitlementKitCrypto CryptoOracles
// fuzz-flags: -max_len=1024
import CryptoOracles
import EntitlementKitCrypto

/// RSASSA-PKCS1-v1_5/SHA-256 verification (`RSAPublicKey`'s Montgomery arithmetic and whole-encoding
/// comparison) against `RSAOracle` (schoolbook products, bit-by-bit remainders, the encoding read field by
/// field): for signatures drawn from the input, both give the same verdict.
///
/// Input: byte 0 picks the mode. Even: a digest (32 bytes), the correct encoding of it altered at up to
/// two places (position, new byte), raised to the fixed test key's private exponent — so "valid" is met as
/// often as the alterations are empty, and near-misses of the padding and DigestInfo the rest of the time.
/// Odd: the rest of the input, padded or cut to the modulus's length (or not, when bit 1 is set), is the
/// signature itself; bit 2 uses a public exponent of 3 with the same modulus (nothing of the key is
/// checked against the exponent, so the arithmetic meets a second exponent).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRSADifferential(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let control = bytes.first else { return 0 }
    let exponent: [UInt8] = control & 4 == 0 ? [0x01, 0x00, 0x01] : [0x03]
    guard let key = try? RSAPublicKey(modulus: testModulus, publicExponent: exponent) else {
        fatalError("the fixed test key is refused")
    }
    let length = key.modulusByteCount
    var rest = bytes.dropFirst()
    let digest = Array(rest.prefix(32)) + [UInt8](repeating: 0, count: max(0, 32 - rest.prefix(32).count))
    rest = rest.dropFirst(32)
    let signature: [UInt8]
    if control & 1 == 0 {
        guard var encoded = RSAPublicKey.encoding(sha256Digest: digest, length: length) else { return 0 }
        for _ in 0..<2 {
            guard rest.count >= 3 else { break }
            let position = (Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])) % length
            // The first byte stays zero, so the altered encoding stays below n and has a signature.
            if position != 0 { encoded[position] = rest[rest.startIndex + 2] }
            rest = rest.dropFirst(3)
        }
        guard let signed = key.testSignature(encodedMessage: encoded, privateExponent: testPrivateExponent) else {
            return 0
        }
        signature = signed
    } else if control & 2 == 0 {
        signature = Array(rest.prefix(length)) + [UInt8](repeating: 0, count: max(0, length - rest.count))
    } else {
        signature = Array(rest)
    }
    let expected = RSAOracle.isValidSignature(
        modulus: testModulus, publicExponent: exponent, signature: signature, sha256Digest: digest)
    let actual = key.isValidSignature(signature, sha256Digest: digest)
    if expected != actual {
        fatalError("verdicts differ (oracle \(String(describing: expected)), fast \(actual)): \(bytes)")
    }
    return 0
}

/// A throwaway 2048-bit key made for this harness (`openssl genrsa 2048`); e = 65537.
private let testModulus = hexBytes(
    """
    c925eff762731a1f617c22ba386e96cba74b63e450b309a19d8ea2a09a4fda88c0b21905f54e6bb41a4c2205631439a6ad232e1dd4\
    f1e76942d2fe55177fa9aaeb796488ae0235a2f60dfaa660c25cae6652bec069a7fa58b7b81f3d0785df490dd38e37818b9cc757ab\
    87beb69fa71f98a245bfe5dba11553929a475397ebb1504583544bc76f6df3a9ff42492dc0145188e9bac57936f45cf3c1597229b4\
    653062c7a547d07cc011dfcea4e4a42fa254c05b84164138b226bf25d2b975de2d8932ecda01efbffc3d01ba88dc1d0cff9ca9d70ed\
    46fbcff9d2511e2a46e1bf0e3724f3b2d51fa20f62e6a89ea5783064af61531cb635d115d4804b0907b5985
    """)
private let testPrivateExponent = hexBytes(
    """
    1fc632e468b456f58b10316a2a3ce9ec2cb69f8672eafd43fee007b787f8c24424f05d3c9035fd947b2cf898d2406124ffa79582d7\
    df08979b9b39dad635efe6d4809e0d6b336526a368ace5f855eb8f0f11d6190df79f77c139c011836d35cad3f8cdb7ddea606f2add\
    a9394a9ee8a6f894f5a0ad1e271177dcaa2b473cb1d9ce5ac1efe5ec48d696f8b3d264bdf8a4faa0f2d061305fa1164f85a682ac51\
    c48413f7180e5345d306e76c82cd980603449998bf8ff7a7cbe4b192b45347316167f35889506c3a533adcb7d68a6d24e209e57a03\
    28f597afb7448f79daec77d6988d713769c2b19a5aa7e0f1536f0773c548d29ee22240bf0256ee57ced7b737
    """)

private func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { index in
        UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) ?? 0
    }
}
