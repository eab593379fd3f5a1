import EntitlementKit
import EntitlementKitAppStore
import Foundation
import Testing

/// `AppStoreJWSVerifier` on the signed fixtures (Fixtures/appstore/signed: a throwaway test PKI carrying
/// Apple's marker OIDs): what verifies, and each check that refuses, by the reason it gives.
@Suite(.timeLimit(.minutes(5))) struct JWSChainVerificationTests {
    static let signed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/appstore/signed")
    static let path = JSONPath.root

    static func certificate(_ name: String) throws -> Data {
        try Data(contentsOf: signed.appendingPathComponent(name))
    }

    /// The JWS strings of `transactions.json` (an array of signed transactions).
    static func transactions() throws -> [String] {
        let data = try Data(contentsOf: signed.appendingPathComponent("transactions.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String])
    }

    static var testRootVerifier: AppStoreJWSVerifier {
        get throws { AppStoreJWSVerifier(rootCertificates: [try certificate("test-root.der")]) }
    }

    /// The reason `verifier` refuses `jws` with, or `nil` when it verifies.
    static func refusal(_ jws: String, _ verifier: AppStoreJWSVerifier) -> String? {
        do {
            _ = try verifier.verify(jws, path: path)
            return nil
        } catch {
            return error.reason
        }
    }

    /// `jws` with its header's JSON changed by `change` and re-encoded (the signature no longer matches,
    /// so a refusal for another reason shows that check comes first).
    static func withHeader(_ jws: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let bytes = try #require(Self.base64URLDecoded(parts[0]))
        var header = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        change(&header)
        let encoded = Self.base64URL(try JSONSerialization.data(withJSONObject: header))
        return [encoded, parts[1], parts[2]].joined(separator: ".")
    }

    /// `jws` with its payload's JSON changed by `change`.
    static func withPayload(_ jws: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let bytes = try #require(Self.base64URLDecoded(parts[1]))
        var payload = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        change(&payload)
        let encoded = Self.base64URL(try JSONSerialization.data(withJSONObject: payload))
        return [parts[0], encoded, parts[2]].joined(separator: ".")
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    @Test func theSignedFixturesVerifyAgainstTheirRootAndGiveThePayloadAndSignedDate() throws {
        let verifier = try Self.testRootVerifier
        let all = try Self.transactions()
        #expect(!all.isEmpty)
        for jws in all {
            let verified = try verifier.verify(jws, path: Self.path)
            let payload = try #require(try JSONSerialization.jsonObject(with: verified.payload) as? [String: Any])
            let milliseconds = try #require(payload["signedDate"] as? Int)
            #expect(verified.signedDate == Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        }
    }

    @Test func onlyAConfiguredRootIsTrustedNeverTheChainsOwnThirdCertificate() throws {
        let jws = try #require(try Self.transactions().first)
        let sameName = AppStoreJWSVerifier(rootCertificates: [try Self.certificate("other-root.der")])
        #expect(Self.refusal(jws, sameName)?.hasSuffix("x5c[1] is not signed by a configured root certificate") == true)
        #expect(Self.refusal(jws, AppStoreJWSVerifier(rootCertificates: []))?.contains("configured root") == true)
        // The bundled Apple Root CA - G3 is not the test root.
        #expect(Self.refusal(jws, AppStoreJWSVerifier())?.contains("configured root") == true)
    }

    @Test func oneChangedCharacterAnywhereFailsIt() throws {
        let verifier = try Self.testRootVerifier
        let jws = try #require(try Self.transactions().first)
        let characters = Array(jws)
        var refused = 0
        // Every 37th character, all three parts included; '.' separators are left alone.
        for index in stride(from: 0, to: characters.count, by: 37) where characters[index] != "." {
            var changed = characters
            changed[index] = characters[index] == "A" ? "B" : "A"
            if Self.refusal(String(changed), verifier) != nil {
                refused += 1
            } else {
                Issue.record("a JWS changed at character \(index) verified")
            }
        }
        #expect(refused > 20)
    }

    @Test func theHeaderMustSayES256WithExactlyThreeCertificates() throws {
        let verifier = try Self.testRootVerifier
        let jws = try #require(try Self.transactions().first)
        let rs256 = try Self.withHeader(jws) { $0["alg"] = "RS256" }
        #expect(Self.refusal(rs256, verifier)?.hasSuffix("its algorithm is not ES256") == true)
        let none = try Self.withHeader(jws) { $0["alg"] = "none" }
        #expect(Self.refusal(none, verifier)?.hasSuffix("its algorithm is not ES256") == true)
        for count in [2, 4] {
            let resized = try Self.withHeader(jws) { header in
                var chain = header["x5c"] as? [String] ?? []
                chain = count == 2 ? Array(chain.prefix(2)) : chain + [chain[2]]
                header["x5c"] = chain
            }
            #expect(Self.refusal(resized, verifier)?.hasSuffix("its x5c holds \(count) certificates, not 3") == true)
        }
        let noChain = try Self.withHeader(jws) { $0["x5c"] = nil }
        #expect(Self.refusal(noChain, verifier)?.hasSuffix("its header has no x5c certificate chain") == true)
    }

    @Test func applesMarkersMustBeOnTheirCertificates() throws {
        let verifier = try Self.testRootVerifier
        let jws = try #require(try Self.transactions().first)
        // The leaf where the intermediate belongs: it lacks the intermediate's marker.
        let swapped = try Self.withHeader(jws) { header in
            let chain = header["x5c"] as? [String] ?? []
            header["x5c"] = [chain[1], chain[0], chain[2]]
        }
        #expect(Self.refusal(swapped, verifier)?.contains("x5c[1] lacks Apple's intermediate marker") == true)
        // The intermediate as the leaf: it lacks the receipt-signing marker.
        let twice = try Self.withHeader(jws) { header in
            let chain = header["x5c"] as? [String] ?? []
            header["x5c"] = [chain[1], chain[1], chain[2]]
        }
        #expect(Self.refusal(twice, verifier)?.contains("x5c[0] lacks Apple's receipt-signing marker") == true)
    }

    @Test func theIntermediateMustBeACertificateAuthorityAllowedToSignCertificates() throws {
        // A second test PKI whose three intermediates all carry Apple's marker: only the real CA may sign.
        let verifier = AppStoreJWSVerifier(rootCertificates: [try Self.certificate("test-root-b.der")])
        let data = try Data(contentsOf: Self.signed.appendingPathComponent("intermediates.json"))
        let chains = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(Self.refusal(try #require(chains["caIntermediate"]), verifier) == nil)
        for name in ["intermediateWithoutTheCAFlag", "intermediateThatMayNotSignCertificates"] {
            let refusal = Self.refusal(try #require(chains[name]), verifier)
            #expect(
                refusal?.hasSuffix("x5c[1] is not a certificate authority") == true, "\(name): \(refusal ?? "verified")"
            )
        }
    }

    @Test func everyCertificateMustBeValidAtTheSignedDateNotNow() throws {
        let verifier = try Self.testRootVerifier
        let jws = try #require(try Self.transactions().first)
        // The test PKI is valid 2024–2034: a signedDate outside it fails on validity (before the signature,
        // which no longer matches either).
        for milliseconds in [1_600_000_000_000, 2_100_000_000_000] {
            let moved = try Self.withPayload(jws) { $0["signedDate"] = milliseconds }
            #expect(
                Self.refusal(moved, verifier)?.contains("is not valid at its signedDate") == true, "\(milliseconds)")
        }
        let missing = try Self.withPayload(jws) { $0["signedDate"] = nil }
        #expect(
            Self.refusal(missing, verifier)?.hasSuffix("its payload has no signedDate (milliseconds since 1970)")
                == true)
    }

    @Test func aMalformedJWSIsALocatedErrorNeverACrash() throws {
        let verifier = try Self.testRootVerifier
        let jws = try #require(try Self.transactions().first)
        let parts = jws.split(separator: ".").map(String.init)
        let malformed = [
            "", ".", "..", "a.b", "a.b.c.d", parts[0] + "." + parts[1],  // not three parts
            parts[0] + "=." + parts[1] + "." + parts[2],  // padding is not base64url
            parts[0] + "." + parts[1] + "." + parts[2] + "+",  // '+' is not base64url
            "e30." + parts[1] + "." + parts[2],  // header {} without alg
            try Self.withHeader(jws) { $0["x5c"] = ["not base64!", "x", "y"] },
            try Self.withHeader(jws) { $0["x5c"] = ["AAAA", "AAAA", "AAAA"] },  // base64, not DER
        ]
        for text in malformed {
            #expect(Self.refusal(text, verifier) != nil, "\(text.prefix(40))")
        }
    }

    @Test func certificatesReadFromDERAndFromPEM() throws {
        let der = try Self.certificate("test-root.der")
        let pem = try Self.certificate("test-root.pem")
        #expect(try AppStoreJWSVerifier.certificates(fromPEMOrDER: der) == [der])
        #expect(try AppStoreJWSVerifier.certificates(fromPEMOrDER: pem) == [der])
        #expect(throws: DocumentError.self) { try AppStoreJWSVerifier.certificates(fromPEMOrDER: Data("hello".utf8)) }
        #expect(AppStoreJWSVerifier.appleRootCertificates.count == 1)
    }
}
