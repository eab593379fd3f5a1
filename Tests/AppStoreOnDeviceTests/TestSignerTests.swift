import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitTesting
import Foundation
import Testing

/// The test kit's signer against the package's verifier: what it signs verifies under the test root only.
@Suite("The test kit's App Store signer", .timeLimit(.minutes(5)))
struct TestSignerTests {
    @Test("signed JWS verify against the test root, deterministically, and not against Apple's root")
    func signsVerifiably() throws {
        let signer = try AppStoreTestSigner()
        let payload = ForgedTransactionTests.transaction(productId: "maps")
        let jws = signer.sign(payload)
        let verified = try AppStoreJWSVerifier(rootCertificates: [signer.rootCertificate]).verify(jws, path: .root)
        #expect(verified.signedDate == OnDeviceWorld.start)
        #expect(signer.sign(payload) == jws, "the nonce is derived, so the same payload signs the same")
        for productId in ["a", "b", "c", "d", "e", "f", "g", "h"] {  // other digests, other nonces
            let other = signer.sign(ForgedTransactionTests.transaction(productId: productId))
            _ = try AppStoreJWSVerifier(rootCertificates: [signer.rootCertificate]).verify(other, path: .root)
        }
        #expect(throws: DocumentError.self) { _ = try AppStoreJWSVerifier().verify(jws, path: .root) }
    }
}
