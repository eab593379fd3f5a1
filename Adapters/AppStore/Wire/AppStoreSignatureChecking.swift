import EntitlementKit
import Foundation

/// How the adapter opens a JWS: with its signature and certificate chain checked, or (for StoreKit test
/// data only) without. `AppStoreJWSVerifier` does both; the adapter asks for nothing else, so the
/// verification code and the mapping stay apart.
protocol AppStoreSignatureChecking: Sendable {
    /// The payload bytes of `jws` after every check Apple's own library makes (algorithm, a three-certificate
    /// chain to a configured root, Apple's marker extensions, validity at `signedDate`, the signature).
    func verifiedPayload(of jws: String, path: JSONPath) throws(DocumentError) -> Data
    /// The payload bytes of `jws`, decoded but not checked.
    func unverifiedPayload(of jws: String, path: JSONPath) throws(DocumentError) -> Data
    /// The payload of `jws` as an object node at `path`, and whether its signature was checked: not when
    /// `isReadableTestData` says the decoded payload is test data that may be read; otherwise only after
    /// every check of `verifiedPayload`. The payload returned is always the one the checks covered.
    func payload(
        of jws: String, path: JSONPath, isReadableTestData: (JSONNode) throws(DocumentError) -> Bool
    ) throws(DocumentError) -> (payload: JSONNode, isVerified: Bool)
}

extension AppStoreSignatureChecking {
    /// From the two payloads: the unverified one decoded first only to see whether it claims to be test
    /// data, then the verified one. (`AppStoreJWSVerifier` does the same in one pass over the JWS.)
    func payload(
        of jws: String, path: JSONPath, isReadableTestData: (JSONNode) throws(DocumentError) -> Bool
    ) throws(DocumentError) -> (payload: JSONNode, isVerified: Bool) {
        let claimed = try AppStoreItemReader.payloadNode(unverifiedPayload(of: jws, path: path), at: path)
        if try isReadableTestData(claimed) { return (claimed, false) }
        let verified = try AppStoreItemReader.payloadNode(verifiedPayload(of: jws, path: path), at: path)
        _ = try isReadableTestData(verified)
        return (verified, true)
    }
}
