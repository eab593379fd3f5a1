import EntitlementKitCrypto
import Foundation
import Testing

/// Every vector of the vendored Wycheproof RSASSA-PKCS1-v1_5 SHA-256 files (2048, 3072 and 4096 bits; see
/// Wycheproof/README.md) gets its verdict: "valid" verifies; "invalid" does not (modified and BER-encoded
/// padding, wrong DigestInfo, signatures of the wrong length, 0, 1, n − 1, n and above); the one
/// "acceptable" vector of each file (a DigestInfo without its NULL) is refused too — this verifier
/// compares the whole encoding, so it is strict where Wycheproof leaves room.
@Suite(.timeLimit(.minutes(5)))
struct WycheproofRSATests {
    struct Key: Decodable {
        let modulus: String
        let publicExponent: String
    }

    @Test(arguments: [
        "rsa_signature_2048_sha256_test", "rsa_signature_3072_sha256_test", "rsa_signature_4096_sha256_test",
    ])
    func everyVectorGetsItsVerdict(file: String) throws {
        let vectors = try WycheproofVectorFile<Key>.named(file)
        var failures: [String] = []
        var count = 0
        for group in vectors.testGroups {
            try #require(group.sha == "SHA-256")
            let key = try RSAPublicKey(
                modulus: hexBytes(group.publicKey.modulus), publicExponent: hexBytes(group.publicKey.publicExponent))
            for vector in group.tests {
                count += 1
                try #require(
                    ["valid", "invalid", "acceptable"].contains(vector.result), "tcId \(vector.tcId): \(vector.result)")
                let verdict = key.isValidSignature(
                    hexBytes(vector.sig), sha256Digest: SHA256.digest(of: hexBytes(vector.msg)))
                if verdict != (vector.result == "valid") {
                    failures.append("tcId \(vector.tcId) (\(vector.comment)): expected \(vector.result)")
                }
            }
        }
        #expect(count == vectors.numberOfTests)
        #expect(
            failures.isEmpty, "\(failures.count) of \(count) vectors in \(file): \(failures.joined(separator: "; "))")
    }
}
