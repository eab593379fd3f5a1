import EntitlementKit
import Foundation
import Testing

@testable import EntitlementKitAppStore
@testable import EntitlementKitCrypto

/// The verified-chain cache (every per-JWS rule still holds with a warm cache; failures never cached; a
/// bounded LRU; one verifier shared by many tasks) and the strictness found by issue 28's audit, on the
/// throwaway chains of `PKI/` (see its README): each test fails when its rule is taken out.
@Suite(.timeLimit(.minutes(5))) struct ChainCacheAndStrictnessTests {
    static let pki = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("PKI")

    static func chains() throws -> [String: String] {
        let data = try Data(contentsOf: pki.appendingPathComponent("chains.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    static func jws(_ name: String) throws -> String { try #require(try chains()[name], "no \(name)") }

    static func verifier(root: String = "windows-root.der") throws -> AppStoreJWSVerifier {
        AppStoreJWSVerifier(rootCertificates: [try Data(contentsOf: pki.appendingPathComponent(root))])
    }

    static func refusal(_ jws: String, _ verifier: AppStoreJWSVerifier) -> String? {
        JWSChainVerificationTests.refusal(jws, verifier)
    }

    // MARK: the cache keeps every per-JWS rule

    /// Validity of all three certificates at each payload's own signedDate, both ends included, whether the
    /// chain was just verified (cold) or comes from the cache (warm: the same chain verified first in 2024).
    @Test(arguments: [true, false])
    func eachCertificatesValidityIsCheckedAtThatPayloadsSignedDate(warm: Bool) throws {
        let shared = try Self.verifier()
        let expectations: [(String, String?)] = [
            ("narrowAtNotAfter", nil), ("narrowAtNotBefore", nil),
            ("narrowJustAfterNotAfter", "x5c[0] is not valid at its signedDate 2025-01-01T00:00:00.001Z"),
            ("narrowJustBeforeNotBefore", "x5c[0] is not valid at its signedDate 2022-12-31T23:59:59.999Z"),
            ("narrowAt2026LeafExpired", "x5c[0] is not valid at its signedDate 2026-01-01T00:00:00Z"),
            ("wideAtRootNotBefore", nil), ("wideAtIntermediateNotAfter", nil),
            ("wideAt2021RootNotYetValid", "the root is not valid at its signedDate 2021-06-01T00:00:00Z"),
            ("wideJustBeforeRootNotBefore", "the root is not valid at its signedDate 2021-12-31T23:59:59.999Z"),
            ("wideAt2029IntermediateExpired", "x5c[1] is not valid at its signedDate 2029-06-01T00:00:00Z"),
            ("wideJustAfterIntermediateNotAfter", "x5c[1] is not valid at its signedDate 2029-01-01T00:00:00.001Z"),
        ]
        for (name, expected) in expectations {
            let verifier = warm ? shared : try Self.verifier()
            if warm {
                #expect(Self.refusal(try Self.jws("narrowValid2024"), verifier) == nil)
                #expect(Self.refusal(try Self.jws("wideValid2024"), verifier) == nil)
                #expect(verifier.chainCache.count == 2)
            }
            let refusal = Self.refusal(try Self.jws(name), verifier)
            if let expected {
                #expect(refusal?.hasSuffix(expected) == true, "\(name): \(refusal ?? "verified")")
            } else {
                #expect(refusal == nil, "\(name): \(refusal ?? "")")
            }
        }
    }

    @Test func aWarmCacheStillChecksTheAlgorithmTheSignatureAndTheMarkers() throws {
        let verifier = try Self.verifier()
        let jws = try Self.jws("wideValid2024")
        #expect(Self.refusal(jws, verifier) == nil)
        #expect(Self.refusal(jws, verifier) == nil)  // from the cache, header bytes and all
        let rs256 = try JWSChainVerificationTests.withHeader(jws) { $0["alg"] = "RS256" }
        #expect(Self.refusal(rs256, verifier)?.hasSuffix("its algorithm is not ES256") == true)
        var signature = Array(jws.split(separator: ".")[2])
        signature[5] = signature[5] == "A" ? "B" : "A"
        let forged = jws.split(separator: ".")[0...1].joined(separator: ".") + "." + String(signature)
        #expect(Self.refusal(forged, verifier)?.hasSuffix("the signature does not match x5c[0]'s key") == true)
        // Another payload under the cached header: its signature is still checked.
        let otherPayload = try JWSChainVerificationTests.withPayload(jws) { $0["transactionId"] = "2" }
        #expect(Self.refusal(otherPayload, verifier)?.hasSuffix("the signature does not match x5c[0]'s key") == true)
        let swapped = try JWSChainVerificationTests.withHeader(jws) { header in
            let chain = header["x5c"] as? [String] ?? []
            header["x5c"] = [chain[1], chain[0], chain[2]]
        }
        #expect(Self.refusal(swapped, verifier)?.contains("x5c[1] lacks Apple's intermediate marker") == true)
        #expect(verifier.chainCache.count == 1)
    }

    @Test func aChainThatFailsIsNeverCached() throws {
        let verifier = try Self.verifier(root: "pathLenZero-root.der")
        for _ in 0..<2 {
            #expect(Self.refusal(try Self.jws("pathLenZero"), verifier) != nil)
        }
        let other = try Self.verifier()
        #expect(Self.refusal(try Self.jws("leafKeyOnP384"), other) != nil)
        #expect(Self.refusal(try Self.jws("leafIssuerIsNotTheIntermediate"), other) != nil)
        #expect(verifier.chainCache.count == 0)
        #expect(other.chainCache.count == 0)
    }

    @Test func theCacheKeepsTheMostRecentlyUsedChainsUpToItsCapacity() throws {
        let cache = VerifiedChainCache(capacity: 2)
        let key = try ECDSAPublicKey(curve: .p256, x963Representation: ECDSAPublicKeyTests.p256.key)
        let chain = VerifiedChainCache.Chain(leafKey: key, validity: [])
        for name in ["a", "b"] {
            cache.store(
                chain, leaf: Array(name.utf8), intermediate: [1], header: Array(name.utf8), hashedHeader: SHA256())
        }
        #expect(cache.chain(leaf: Array("a".utf8), intermediate: [1]) != nil)  // a is now the most recent
        cache.store(chain, leaf: Array("c".utf8), intermediate: [1], header: Array("c".utf8), hashedHeader: SHA256())
        #expect(cache.count == 2)
        #expect(cache.chain(leaf: Array("b".utf8), intermediate: [1]) == nil)
        #expect(cache.chain(header: Array("a".utf8)[...]) != nil)
        #expect(cache.chain(leaf: Array("a".utf8), intermediate: [2]) == nil)
    }

    @Test func oneVerifierServesManyTasksAtOnce() async throws {
        let verifier = try Self.verifier()
        let names = ["wideValid2024", "narrowValid2024", "narrowAtNotAfter", "wideAt2021RootNotYetValid"]
        let documents = try names.map { try Self.jws($0) }
        let verdicts = await withTaskGroup(of: [Bool].self) { group in
            for _ in 0..<4 {
                group.addTask { documents.map { (try? verifier.verify($0, path: .root)) != nil } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(verdicts == Array(repeating: [true, true, true, false], count: 4))
    }

    // MARK: issue 28's findings

    /// RFC 7515 §4.1.11: a recipient refuses a JWS whose `crit` names extensions it does not understand
    /// (this one understands none), and `crit` may not be empty.
    @Test(arguments: ["critNamingAnExtension", "critEmpty"])
    func aHeaderWithCritIsRefused(name: String) throws {
        let refusal = Self.refusal(try Self.jws(name), try Self.verifier())
        #expect(
            refusal?.hasSuffix("its header names critical extensions (crit), which this verifier does not understand")
                == true)
    }

    @Test(arguments: ["thirdCertificateANumber", "thirdCertificateNull"])
    func aThirdCertificateThatIsNotAStringIsRefused(name: String) throws {
        #expect(
            Self.refusal(try Self.jws(name), try Self.verifier())?.hasSuffix("x5c[2] is not a base64 certificate")
                == true)
    }

    @Test func aConfiguredRootsPathLengthIsEnforced() throws {
        let zero = Self.refusal(try Self.jws("pathLenZero"), try Self.verifier(root: "pathLenZero-root.der"))
        #expect(zero?.hasSuffix("the root's path length constraint 0 allows no certificate authority below it") == true)
        #expect(Self.refusal(try Self.jws("pathLenOne"), try Self.verifier(root: "pathLenOne-root.der")) == nil)
    }

    @Test func theLeafsIssuerMustBeTheIntermediatesSubject() throws {
        let refusal = Self.refusal(try Self.jws("leafIssuerIsNotTheIntermediate"), try Self.verifier())
        #expect(refusal?.hasSuffix("x5c[0] is not signed by x5c[1]") == true)
    }

    @Test func anUnknownCriticalExtensionRefusesTheCertificate() throws {
        let refusal = Self.refusal(try Self.jws("leafWithUnknownCriticalExtension"), try Self.verifier())
        #expect(refusal?.contains("critical extension 1.3.6.1.4.1.55555.1 is not understood") == true)
    }

    @Test func theLeafKeyMustBeOnP256() throws {
        let refusal = Self.refusal(try Self.jws("leafKeyOnP384"), try Self.verifier())
        #expect(refusal?.hasSuffix("x5c[0]'s key is not a P-256 key (ES256)") == true)
    }

    /// ES256's signature is r‖s of exactly 32 bytes each: the same r and s each padded with a zero byte
    /// (66 bytes) are refused.
    @Test func theRawSignatureIsExactlySixtyFourBytes() throws {
        let refusal = Self.refusal(try Self.jws("signaturePaddedToSixtySixBytes"), try Self.verifier())
        #expect(refusal?.hasSuffix("the signature does not match x5c[0]'s key") == true)
    }

    // MARK: DER: no negative pathLen, no encoded default

    /// A minimal certificate around `basicConstraints` (its extension's DER), so each variant differs from a
    /// readable one in that one place.
    static func certificate(basicConstraints: [UInt8]) -> [UInt8] {
        func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            let count = content.count
            let length: [UInt8] =
                count < 0x80
                ? [UInt8(count)]
                : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
            return [tag] + length + content
        }
        let algorithm = tlv(0x30, tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
        let name = tlv(0x30, tlv(0x31, tlv(0x30, tlv(0x06, [0x55, 0x04, 0x03]) + tlv(0x0C, Array("Test".utf8)))))
        let validity = tlv(0x30, tlv(0x17, Array("240101000000Z".utf8)) + tlv(0x17, Array("340101000000Z".utf8)))
        let generator = hexBytes(
            "046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        let keyInfo = tlv(
            0x30,
            tlv(
                0x30,
                tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
                    + tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]))
                + tlv(0x03, [0] + generator))
        let extensions = tlv(0xA3, tlv(0x30, basicConstraints))
        let body =
            tlv(0xA0, tlv(0x02, [2])) + tlv(0x02, [1]) + algorithm + name + validity + name + keyInfo + extensions
        let signature = tlv(0x30, tlv(0x02, [1]) + tlv(0x02, [1]))
        return tlv(0x30, tlv(0x30, body) + algorithm + tlv(0x03, [0] + signature))
    }

    static func basicConstraints(critical: [UInt8]?, members: [UInt8]) -> [UInt8] {
        let oid: [UInt8] = [0x06, 0x03, 0x55, 0x1D, 0x13]
        let flag = critical.map { [0x01, 0x01] + $0 } ?? []
        let value = [0x30, UInt8(members.count)] + members
        let body = oid + flag + [0x04, UInt8(value.count)] + value
        return [0x30, UInt8(body.count)] + body
    }

    @Test func aNegativePathLengthAndAnEncodedDefaultAreNotDER() throws {
        let readable = try X509Certificate(
            der: Self.certificate(
                basicConstraints: Self.basicConstraints(
                    critical: [0xFF], members: [0x01, 0x01, 0xFF, 0x02, 0x01, 0x01])))
        #expect(readable.isCertificateAuthority && readable.pathLengthConstraint == 1)
        let refused: [([UInt8], String)] = [
            (
                Self.basicConstraints(critical: [0xFF], members: [0x01, 0x01, 0xFF, 0x02, 0x01, 0xFF]),
                "a negative pathLenConstraint"
            ),
            (Self.basicConstraints(critical: [0x00], members: [0x01, 0x01, 0xFF]), "critical FALSE is the default"),
            (Self.basicConstraints(critical: nil, members: [0x01, 0x01, 0x00]), "cA FALSE is the default"),
            (
                Self.basicConstraints(critical: nil, members: [0x01, 0x01, 0xFF, 0x02, 0x02, 0x00, 0x01]),
                "leading zero"
            ),
        ]
        for (extensionBytes, reason) in refused {
            #expect(throws: DERError.self) {
                try X509Certificate(der: Self.certificate(basicConstraints: extensionBytes))
            }
            do {
                _ = try X509Certificate(der: Self.certificate(basicConstraints: extensionBytes))
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }

    // MARK: --bundle-id

    /// The configured bundle id is compared by its UTF-8 bytes: "café" precomposed (U+00E9) and decomposed
    /// (e + U+0301) are different apps, though Swift's `==` calls them equal.
    @Test func theBundleIdIsComparedByItsBytes() throws {
        let precomposed = "com.acme.caf\u{E9}"
        let decomposed = "com.acme.cafe\u{301}"
        let transaction: [String: Any] = [
            "transactionId": "1", "originalTransactionId": "1", "bundleId": decomposed,
            "productId": "com.acme.lifetime", "purchaseDate": 1_748_772_000_000, "type": "Non-Consumable",
            "inAppOwnershipType": "PURCHASED", "signedDate": 1_748_772_000_000, "environment": "Production",
        ]
        let document = try JSONSerialization.data(withJSONObject: ["transactions": [transaction]])
        let instant = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(throws: DocumentError.self) {
            try AppStoreAdapter(bundleId: precomposed).snapshot(from: document, at: instant)
        }
        _ = try AppStoreAdapter(bundleId: decomposed).snapshot(from: document, at: instant)
    }
}
