import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// Verifies App Store JWS (StoreKit 2 transactions and renewal infos, App Store Server API responses) as
/// Apple's own server library does, in pure Swift: header `alg` ES256 and an `x5c` of exactly three
/// certificates; the leaf signed by `x5c[1]`, and `x5c[1]` by a **configured** root (`x5c[2]` is never
/// trusted, whatever it holds); Apple's marker extensions on the leaf and the intermediate; every
/// certificate valid at the payload's `signedDate`; the ES256 signature over `header.payload`. A header
/// with `crit` is refused (no extension is understood), as are a root's path length constraint that allows
/// no intermediate, a root without basic constraints' cA, a certificate whose validity ends before it starts
/// and a critical certificate extension other than basic constraints and key usage.
///
/// A verifier keeps the chains that verified (a few dozen, least recently used first out), so the JWS of
/// one chain pay for its certificate checks once; the validity at each payload's `signedDate`, the
/// algorithm and the signature are checked for every JWS. Copies share the cache; it is safe to use from
/// many threads at once.
///
/// Not checked, because it cannot be offline: revocation (OCSP, CRLs). The check is at `signedDate`, not
/// now: Apple's leaf certificates expire while the transactions they signed stay valid records.
/// Everything it handles is public (the JWS, Apple's certificates): no secret reaches this code, so none
/// of it needs to be constant-time.
public struct AppStoreJWSVerifier: Sendable {
    /// A payload that verified.
    public struct VerifiedJWS: Sendable, Hashable {
        /// The payload's JSON bytes.
        public var payload: Data
        /// The payload's `signedDate`.
        public var signedDate: Date
    }

    private let roots: [X509Certificate]
    /// Chains that passed every check, shared by copies of this verifier (their roots are the same).
    let chainCache: VerifiedChainCache

    /// A verifier trusting `rootCertificates` (DER), by default the bundled Apple Root CA - G3. A
    /// certificate that does not read is not trusted.
    public init(rootCertificates: [Data] = AppStoreJWSVerifier.appleRootCertificates) {
        roots = rootCertificates.compactMap { try? X509Certificate(der: Array($0)) }
        chainCache = VerifiedChainCache()
    }

    /// Apple Root CA - G3, bundled with the module.
    public static var appleRootCertificates: [Data] {
        guard let url = Bundle.module.url(forResource: "AppleRootCA-G3", withExtension: "cer"),
            let data = try? Data(contentsOf: url)
        else { return [] }
        return [data]
    }

    /// The DER certificates in `data`: one DER certificate, or PEM text of `CERTIFICATE` blocks.
    public static func certificates(fromPEMOrDER data: Data) throws(DocumentError) -> [Data] {
        let path = JSONPath.root
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") else {
            do {
                _ = try X509Certificate(der: Array(data))
            } catch {
                throw DocumentError(kind: .invalidValue, path: path, reason: "is not a DER certificate: \(error)")
            }
            return [data]
        }
        var blocks: [Data] = []
        var body: String?
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "-----BEGIN CERTIFICATE-----", body == nil {
                body = ""
            } else if line == "-----END CERTIFICATE-----", let base64 = body {
                guard let der = Data(base64Encoded: base64) else {
                    throw DocumentError(
                        kind: .invalidValue, path: path, reason: "holds a PEM block that is not base64")
                }
                do {
                    _ = try X509Certificate(der: Array(der))
                } catch {
                    throw DocumentError(
                        kind: .invalidValue, path: path,
                        reason: "holds PEM block \(blocks.count + 1), which is not a certificate: \(error)")
                }
                blocks.append(der)
                body = nil
            } else if line.hasPrefix("-----") {
                throw DocumentError(
                    kind: .invalidValue, path: path, reason: "holds a PEM block that is not a CERTIFICATE")
            } else if body != nil {
                body? += line
            }
        }
        guard body == nil, !blocks.isEmpty else {
            throw DocumentError(kind: .invalidValue, path: path, reason: "holds no complete PEM CERTIFICATE block")
        }
        return blocks
    }

    /// `jws` verified; any failure is a located error at `path` naming what failed.
    public func verify(_ jws: String, path: JSONPath) throws(DocumentError) -> VerifiedJWS {
        guard let parts = CompactJWS(jws), let payloadBytes = Base64URL.decode(bytes: parts.payload) else {
            throw Self.notAJWS(jws, path: path)
        }
        // Not parsed yet is not an error yet: the checks refuse a payload that is not an object where they
        // need its signedDate, after the header's own refusals.
        let payload = try? JSONValue.parse(Data(payloadBytes))
        let signedDate = try checkedSignedDate(of: parts, payload: payload, path: path)
        return VerifiedJWS(payload: Data(payloadBytes), signedDate: signedDate)
    }

    /// The payload of `jws` as an object node at `path` — decoded, parsed and, unless `isReadableTestData`
    /// says it is test data that may be read unverified, checked as `verify` checks — and whether it was.
    /// The JWS is cut and its payload decoded and parsed once; the payload returned is the one whose bytes
    /// the signature covers.
    func openedPayload(
        of jws: String, path: JSONPath, isReadableTestData: (JSONNode) throws(DocumentError) -> Bool
    ) throws(DocumentError) -> (payload: JSONNode, isVerified: Bool) {
        guard let parts = CompactJWS(jws), let payloadBytes = Base64URL.decode(bytes: parts.payload),
            !payloadBytes.isEmpty
        else { throw Self.notAJWS(jws, path: path) }
        let payload = try AppStoreItemReader.payloadNode(Data(payloadBytes), at: path)
        if try isReadableTestData(payload) { return (payload, false) }
        _ = try checkedSignedDate(of: parts, payload: payload.value, path: path)
        return (payload, true)
    }

    private static func notAJWS(_ jws: String, path: JSONPath) -> DocumentError {
        DocumentError(
            // Only the part the error shows is quoted: a JWS-shaped text may be megabytes long.
            kind: .invalidValue, path: path,
            value: JSONValue.string(String(jws.prefix(2 * DocumentError.maximumValueLength))).compactText,
            reason: "is not a JWS (three base64url parts separated by dots)")
    }

    /// Every check of `verify` on a JWS cut into its parts, whose payload decoded (and parsed to `payload`,
    /// nil when it is not JSON); the payload's signedDate when all pass.
    private func checkedSignedDate(
        of parts: CompactJWS, payload: JSONValue?, path: JSONPath
    ) throws(DocumentError) -> Date {
        func refuse(_ reason: String) -> DocumentError {
            DocumentError(kind: .invalidValue, path: path, reason: "is a JWS that does not verify: " + reason)
        }
        guard let signature = Base64URL.decode(bytes: parts.signature) else {
            throw Self.notAJWS(String(decoding: parts.bytes, as: UTF8.self), path: path)
        }
        let chain: VerifiedChainCache.Chain
        var hasher: SHA256
        let signedDate: Date
        if let (cached, hashedHeader) = chainCache.chain(header: parts.header) {
            // The same header bytes as a JWS whose header and chain passed every check: decoding them again
            // would give the same answers.
            (chain, hasher) = (cached, hashedHeader)
            signedDate = try Self.signedDate(of: payload, refuse)
        } else {
            guard let headerBytes = Base64URL.decode(bytes: parts.header) else {
                throw Self.notAJWS(String(decoding: parts.bytes, as: UTF8.self), path: path)
            }
            let (leafText, intermediateText) = try Self.checkedHeader(headerBytes, refuse)
            hasher = SHA256()
            hasher.update(parts.header)
            hasher.update(CollectionOfOne(UInt8(ascii: ".")))
            if let cached = chainCache.chain(leaf: Array(leafText.utf8), intermediate: Array(intermediateText.utf8)) {
                chain = cached
                signedDate = try Self.signedDate(of: payload, refuse)
            } else {
                let leaf = try Self.certificate(leafText, index: 0, refuse)
                let intermediate = try Self.certificate(intermediateText, index: 1, refuse)
                signedDate = try Self.signedDate(of: payload, refuse)
                chain = try verifiedChain(leaf: leaf, intermediate: intermediate, refuse)
            }
            chainCache.store(
                chain, leaf: Array(leafText.utf8), intermediate: Array(intermediateText.utf8),
                header: Array(parts.header), hashedHeader: hasher)
        }
        for (index, window) in chain.validity.enumerated() where !window.contains(signedDate) {
            let name = ["x5c[0]", "x5c[1]", "the root"][index]
            throw refuse("\(name) is not valid at its signedDate \(RFC3339.string(from: signedDate))")
        }
        hasher.update(parts.payload)
        guard chain.leafKey.isValidSignature(rawRepresentation: signature, digest: hasher.finalize()) else {
            throw refuse("the signature does not match x5c[0]'s key")
        }
        return signedDate
    }

    /// The texts of `x5c[0]` and `x5c[1]` of a header that asks for nothing this verifier does not do: no
    /// `crit` (RFC 7515 §4.1.11: a recipient must refuse extensions it does not understand, and this one
    /// understands none), `alg` ES256, and an `x5c` of exactly three base64 strings.
    private static func checkedHeader(
        _ bytes: [UInt8], _ refuse: (String) -> DocumentError
    ) throws(DocumentError) -> (String, String) {
        guard case .object(let header)? = try? JSONValue.parse(Data(bytes)) else {
            throw refuse("its header is not a JSON object")
        }
        guard header["crit"] == nil else {
            throw refuse("its header names critical extensions (crit), which this verifier does not understand")
        }
        guard case .string("ES256")? = header["alg"] else { throw refuse("its algorithm is not ES256") }
        guard case .array(let chain)? = header["x5c"] else { throw refuse("its header has no x5c certificate chain") }
        guard chain.count == 3 else { throw refuse("its x5c holds \(chain.count) certificates, not 3") }
        var texts: [String] = []
        for (index, element) in chain.enumerated() {
            // x5c[2] is never trusted, but a chain whose third member is not even a certificate's base64 is
            // not a chain Apple signs (Apple's library refuses it too).
            guard case .string(let base64) = element, Data(base64Encoded: base64) != nil else {
                throw refuse("x5c[\(index)] is not a base64 certificate")
            }
            texts.append(base64)
        }
        return (texts[0], texts[1])
    }

    private static func certificate(
        _ base64: String, index: Int, _ refuse: (String) -> DocumentError
    ) throws(DocumentError) -> X509Certificate {
        guard let der = Data(base64Encoded: base64) else { throw refuse("x5c[\(index)] is not a base64 certificate") }
        do {
            return try X509Certificate(der: Array(der))
        } catch {
            throw refuse("x5c[\(index)] is not a certificate this verifier reads: \(error)")
        }
    }

    private static func signedDate(
        of payload: JSONValue?, _ refuse: (String) -> DocumentError
    ) throws(DocumentError) -> Date {
        guard case .object(let payload)? = payload else {
            throw refuse("its payload is not a JSON object")
        }
        guard let signedDate = Self.signedDate(payload["signedDate"]) else {
            throw refuse("its payload has no signedDate (milliseconds since 1970)")
        }
        return signedDate
    }

    /// The checks that depend on the certificates alone: Apple's markers, the intermediate a CA that may
    /// sign certificates, each signature up to a configured root, the root's path length, a P-256 leaf key.
    private func verifiedChain(
        leaf: X509Certificate, intermediate: X509Certificate, _ refuse: (String) -> DocumentError
    ) throws(DocumentError) -> VerifiedChainCache.Chain {
        guard intermediate.extensionIds.contains(AppleCertificateMarker.wwdrIntermediate) else {
            throw refuse("x5c[1] lacks Apple's intermediate marker \(AppleCertificateMarker.wwdrIntermediate)")
        }
        guard leaf.extensionIds.contains(AppleCertificateMarker.receiptSigning) else {
            throw refuse("x5c[0] lacks Apple's receipt-signing marker \(AppleCertificateMarker.receiptSigning)")
        }
        guard intermediate.isCertificateAuthority, intermediate.mayCertifyKeys != false else {
            throw refuse("x5c[1] is not a certificate authority")
        }
        guard leaf.issuer == intermediate.subject, leaf.isSigned(by: intermediate.publicKey) else {
            throw refuse("x5c[0] is not signed by x5c[1]")
        }
        let root = roots.first { root in
            root.subject == intermediate.issuer && intermediate.isSigned(by: root.publicKey)
        }
        guard let root else { throw refuse("x5c[1] is not signed by a configured root certificate") }
        // A configured root is trusted as an anchor only when it says it is a certificate authority.
        guard root.isCertificateAuthority else {
            throw refuse("the root certificate is not a certificate authority (no basicConstraints cA)")
        }
        // One certificate authority (x5c[1]) stands between the root and the leaf.
        if let limit = root.pathLengthConstraint, limit < 1 {
            throw refuse("the root's path length constraint \(limit) allows no certificate authority below it")
        }
        guard leaf.publicKey.curve == .p256 else { throw refuse("x5c[0]'s key is not a P-256 key (ES256)") }
        return VerifiedChainCache.Chain(
            leafKey: leaf.publicKey,
            validity: [leaf, intermediate, root].map { $0.notBefore...$0.notAfter })
    }

    /// The payload of `jws`, decoded and not checked (StoreKit test data, which Apple does not sign).
    public func decodeUnverified(_ jws: String, path: JSONPath) throws(DocumentError) -> Data {
        guard let parts = CompactJWS(jws), let payload = Base64URL.decode(bytes: parts.payload), !payload.isEmpty else {
            throw Self.notAJWS(jws, path: path)
        }
        return Data(payload)
    }

    /// `signedDate` in milliseconds since 1970: an integer, or a number with a fraction (Xcode's).
    private static func signedDate(_ value: JSONValue?) -> Date? {
        switch value {
        case .integer(let milliseconds)?: return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        case .double(let milliseconds)? where milliseconds.isFinite:
            return Date(timeIntervalSince1970: milliseconds / 1000)
        default: return nil
        }
    }
}

extension AppStoreJWSVerifier: AppStoreSignatureChecking {
    func verifiedPayload(of jws: String, path: JSONPath) throws(DocumentError) -> Data {
        try verify(jws, path: path).payload
    }

    func unverifiedPayload(of jws: String, path: JSONPath) throws(DocumentError) -> Data {
        try decodeUnverified(jws, path: path)
    }

    func payload(
        of jws: String, path: JSONPath, isReadableTestData: (JSONNode) throws(DocumentError) -> Bool
    ) throws(DocumentError) -> (payload: JSONNode, isVerified: Bool) {
        try openedPayload(of: jws, path: path, isReadableTestData: isReadableTestData)
    }
}
