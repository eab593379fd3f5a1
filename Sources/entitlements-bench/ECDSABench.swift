import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitCrypto
import Foundation

/// The signature checks of App Store JWS verification, per CPU-second: an ES256 signature (SHA-256 of a
/// JWS-sized signing input, then P-256), one certificate signature (SHA-384 of a certificate-sized input,
/// then P-384), and the three a JWS needs (its own and its chain's two). The keys and signatures are RFC
/// 6979's deterministic examples (A.2.5, A.2.6), re-checked on each iteration; certificate parsing and
/// the JSON around them are not in these figures.
enum ECDSABench {
    static func report(seconds: Double = 1) {
        guard let p256 = try? ECDSAPublicKey(curve: .p256, x963Representation: bytes(p256Key)),
            let p384 = try? ECDSAPublicKey(curve: .p384, x963Representation: bytes(p384Key))
        else { return print("- ECDSA: the sample keys did not load") }
        // Sizes of a StoreKit 2 transaction's signing input and of an Apple certificate's TBS part.
        let signingInput = [UInt8](repeating: 0x41, count: 1_500)
        let certificateBody = [UInt8](repeating: 0x30, count: 800)
        let sample = Array("sample".utf8)
        let es256 = {
            _ = SHA256.digest(of: signingInput)
            return p256.isValidSignature(rawRepresentation: bytes(p256Signature), digest: SHA256.digest(of: sample))
        }
        let certificate = {
            _ = SHA384.hash(certificateBody)
            return p384.isValidSignature(rawRepresentation: bytes(p384Signature), digest: SHA384.hash(sample))
        }
        let jws = { es256() && certificate() && certificate() }
        print("\n| signature check | per CPU-second |")
        print("|---|---|")
        for (name, check) in [
            ("ES256 (P-256, SHA-256 of 1.5 KB)", es256), ("certificate (P-384, SHA-384 of 800 B)", certificate),
            ("a JWS: ES256 + two certificates", jws),
        ] {
            print("| \(name) | \(measure(seconds: seconds, check)) |")
        }
    }

    /// Checks per CPU-second, counting only checks that succeeded (a failure would mean a broken build).
    private static func measure(seconds: Double, _ check: () -> Bool) -> String {
        let start = Machine.cpuSeconds
        var count = 0
        while Machine.cpuSeconds - start < seconds {
            for _ in 0..<10 {
                guard check() else { return "FAILED: a valid signature did not verify" }
                count += 1
            }
        }
        return format(Double(count) / (Machine.cpuSeconds - start), 0)
    }

    private static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }

    private static let p256Key =
        "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
        + "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"
    private static let p256Signature =
        "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
        + "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
    private static let p384Key =
        "04ec3a4e415b4e19a4568618029f427fa5da9a8bc4ae92e02e06aae5286b300c64def8f0ea9055866064a254515480bc13"
        + "8015d9b72d7d57244ea8ef9ac0c621896708a59367f9dfb9f54ca84b3f1c9db1288b231c3ae0d4fe7344fd2533264720"
    private static let p384Signature =
        "94edbb92a5ecb8aad4736e56c691916b3f88140666ce9fa73d64c4ea95ad133c81a648152e44acf96e36dd1e80fabe46"
        + "99ef4aeb15f178cea1fe40db2603138f130e740a19624526203b6351d0a3a94fa329c145786e679e7b82c71a38628ac8"
}
