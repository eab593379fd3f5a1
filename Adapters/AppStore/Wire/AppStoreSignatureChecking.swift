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
}
