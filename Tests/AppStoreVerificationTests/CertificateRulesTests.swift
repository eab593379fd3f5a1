import EntitlementKit
import Foundation
import Testing

@testable import EntitlementKitAppStore
@testable import EntitlementKitCrypto

/// Issue 31's certificate rules on the throwaway chains of `PKI/` (`make-rules-chains.py`, README): a
/// validity that ends before it starts is a located error (it trapped in a range before); a critical
/// extension the verifier does not process is refused, as Apple's library refuses it; a configured root
/// must say it is a certificate authority.
@Suite(.timeLimit(.minutes(5))) struct CertificateRulesTests {
    static let pki = ChainCacheAndStrictnessTests.pki

    static func chain(_ name: String) throws -> String {
        let data = try Data(contentsOf: pki.appendingPathComponent("rules-chains.json"))
        let chains = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        return try #require(chains[name], "no \(name)")
    }

    static func verifier(root: String = "rules-root.der") throws -> AppStoreJWSVerifier {
        AppStoreJWSVerifier(rootCertificates: [try Data(contentsOf: pki.appendingPathComponent(root))])
    }

    static func refusal(_ name: String, root: String = "rules-root.der") throws -> String? {
        JWSChainVerificationTests.refusal(try chain(name), try verifier(root: root))
    }

    @Test func theRulesChainVerifies() throws {
        #expect(try Self.refusal("valid") == nil)
    }

    @Test func aValidityEndingBeforeItStartsIsALocatedError() throws {
        let backwards =
            "the validity's notBefore 2034-01-01T00:00:00Z is after its notAfter 2024-01-01T00:00:00Z at byte "
        for (name, certificate) in [
            ("leafNotBeforeAfterNotAfter", "x5c[0]"), ("intermediateNotBeforeAfterNotAfter", "x5c[1]"),
        ] {
            let refusal = try Self.refusal(name)
            #expect(
                refusal?.hasPrefix(
                    "is a JWS that does not verify: \(certificate) is not a certificate this verifier reads: "
                        + backwards)
                    == true, "\(refusal ?? "verified")")
        }
        // As a configured root: not read, so not trusted; and named where roots are loaded.
        #expect(
            try Self.refusal("underBackwardsRoot", root: "backwards-root.der")?.hasSuffix(
                "x5c[1] is not signed by a configured root certificate") == true)
        let der = try Data(contentsOf: Self.pki.appendingPathComponent("backwards-root.der"))
        #expect(throws: DERError.self) { try X509Certificate(der: Array(der)) }
        do {
            _ = try AppStoreJWSVerifier.certificates(fromPEMOrDER: der)
            Issue.record("a backwards root was read")
        } catch {
            #expect(
                error.reason.hasPrefix(
                    "is not a DER certificate: the validity's notBefore 2034-01-01T00:00:00Z is after its notAfter"))
        }
    }

    @Test(arguments: [
        ("leafWithCriticalExtendedKeyUsage", "x5c[0]", "2.5.29.37"),
        ("intermediateWithCriticalCertificatePolicies", "x5c[1]", "2.5.29.32"),
        ("leafWithCriticalSubjectKeyIdentifier", "x5c[0]", "2.5.29.14"),
        ("leafWithCriticalAuthorityKeyIdentifier", "x5c[0]", "2.5.29.35"),
    ])
    func aCriticalExtensionTheVerifierDoesNotProcessIsRefused(name: String, certificate: String, oid: String) throws {
        let refusal = try Self.refusal(name)
        #expect(refusal?.contains("\(certificate) is not a certificate this verifier reads") == true, "\(name)")
        #expect(
            refusal?.contains("critical extension \(oid) is not understood at byte ") == true,
            "\(refusal ?? "verified")")
    }

    @Test(arguments: ["noBasicConstraints-root.der", "notCA-root.der"])
    func aRootThatIsNotACertificateAuthorityIsRefused(root: String) throws {
        let name = root == "notCA-root.der" ? "underRootNotCA" : "underRootWithoutBasicConstraints"
        #expect(
            try Self.refusal(name, root: root)
                == "is a JWS that does not verify: the root certificate is not a certificate authority (no basicConstraints cA)"
        )
    }
}

/// A JWS-shaped text of the wrong shape is refused without a copy, and its error quotes only what it shows.
@Suite(.timeLimit(.minutes(5))) struct HugeJWSTextTests {
    @Test func tenMegabytesOfDotsAreNoJWSAndTheErrorStaysShort() throws {
        let dots = String(repeating: ".", count: 10_000_000)
        #expect(CompactJWS(dots) == nil)
        #expect(CompactJWS("a.b.c") != nil && CompactJWS("a.b.c.") == nil && CompactJWS("a.b") == nil)
        let verifier = AppStoreJWSVerifier(rootCertificates: [])
        do {
            _ = try verifier.verify(dots, path: .root)
            Issue.record("ten megabytes of dots verified")
        } catch {
            #expect(error.value == "\"" + String(repeating: ".", count: DocumentError.maximumValueLength - 2) + "…")
            #expect(error.reason == "is not a JWS (three base64url parts separated by dots)")
        }
    }
}
