import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitCrypto
import Foundation
import Testing

/// Every vector of the vendored Wycheproof ECDSA files (see Wycheproof/README.md) must get its verdict:
/// "valid" verifies, "invalid" does not — malformed DER, out-of-range r and s, edge cases of the
/// arithmetic (Shamir sums through infinity, x-coordinates above n, extreme intermediate values).
@Suite(.timeLimit(.minutes(5)))
struct WycheproofECDSATests {
    struct Key: Decodable {
        let curve: String
        let uncompressed: String
    }

    @Test(arguments: [
        "ecdsa_secp256r1_sha256_test", "ecdsa_secp256r1_sha256_p1363_test", "ecdsa_secp384r1_sha384_test",
        "ecdsa_secp384r1_sha384_p1363_test",
    ])
    func everyVectorGetsItsVerdict(file: String) throws {
        let vectors = try WycheproofVectorFile<Key>.named(file)
        let isRaw = file.contains("p1363")
        var failures: [String] = []
        var count = 0
        for group in vectors.testGroups {
            let curve: ECDSACurve = try #require(["secp256r1": .p256, "secp384r1": .p384][group.publicKey.curve])
            let key = try ECDSAPublicKey(curve: curve, x963Representation: hexBytes(group.publicKey.uncompressed))
            for vector in group.tests {
                count += 1
                try #require(["valid", "invalid"].contains(vector.result), "tcId \(vector.tcId): \(vector.result)")
                let digest = try Self.digest(hexBytes(vector.msg), algorithm: group.sha)
                let signature = hexBytes(vector.sig)
                let verdict =
                    isRaw
                    ? key.isValidSignature(rawRepresentation: signature, digest: digest)
                    : key.isValidSignature(derEncoded: signature, digest: digest)
                if verdict != (vector.result == "valid") {
                    failures.append("tcId \(vector.tcId) (\(vector.comment)): expected \(vector.result)")
                }
            }
        }
        #expect(count == vectors.numberOfTests)
        #expect(
            failures.isEmpty, "\(failures.count) of \(count) vectors in \(file): \(failures.joined(separator: "; "))")
    }

    static func digest(_ message: [UInt8], algorithm: String) throws -> [UInt8] {
        switch algorithm {
        case "SHA-256": SHA256.digest(of: message)
        case "SHA-384": SHA384.hash(message)
        case "SHA-512": SHA512.hash(message)
        default: throw UnknownDigest(name: algorithm)
        }
    }

    struct UnknownDigest: Error { let name: String }
}
